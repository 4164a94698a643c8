/**
 * Calibration constants the /calibration page needs in the browser. Imports nothing at run time,
 * so a client component may import it (it is in ISOMORPHIC in eslint.config.mjs).
 */
import type { EstimatedField } from '../types';

/** Fields the scatter plots: amounts spanning orders of magnitude, which is what log axes are for. */
export const SCATTER_FIELDS: readonly EstimatedField[] = ['tokens', 'latencySeconds', 'costUsd'];
