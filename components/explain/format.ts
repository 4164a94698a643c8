/**
 * Number formatting for EXPLAIN tables. Locale is pinned so server and client render the same text.
 */
import type { Misestimate } from '@/server/runtime/explain/explain-types';
import type { CandidatePlan, Estimate } from '@/server/runtime/types';

export const formatUsd = (value: number): string => {
  if (value === 0) return '$0';
  return Math.abs(value) < 0.01 ? `$${value.toPrecision(2)}` : `$${value.toFixed(3)}`;
};

export const formatSeconds = (value: number): string => (Math.abs(value) < 1 ? `${Math.round(value * 1000)} ms` : `${value.toFixed(2)} s`);

/**
 * One formatter, built once: `Number.prototype.toLocaleString` builds a new Intl.NumberFormat on
 * every call, and a 200-node plan's first render spent ~50 ms of its 2 s budget in it.
 */
const WHOLE_NUMBER = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

export const formatTokens = (value: number): string => WHOLE_NUMBER.format(Math.round(value));

export const formatRatio = (value: number): string => `${(value * 100).toFixed(0)}%`;

export const formatScore = (value: number): string => value.toFixed(3);

export function formatInterval(estimate: Estimate, format: (value: number) => string): string {
  return `${format(estimate.low)} – ${format(estimate.high)}`;
}

/** How far off, whichever the direction: 1 = exact, 10 = an order of magnitude. */
export function misestimateRatio(factor: number): number {
  if (!Number.isFinite(factor) || factor <= 0) return Number.POSITIVE_INFINITY;
  return factor >= 1 ? factor : 1 / factor;
}

/** pgAdmin's depesz-inspired thresholds: colour at 10×, 100× and 1000× off. */
export function misestimateSeverity(factor: number): 'fine' | 'x10' | 'x100' | 'x1000' {
  const ratio = misestimateRatio(factor);
  if (ratio >= 1000) return 'x1000';
  if (ratio >= 100) return 'x100';
  if (ratio >= 10) return 'x10';
  return 'fine';
}

export function formatMisestimate(misestimate: Misestimate): string {
  if (misestimate.direction === 'exact') return '×1';
  const ratio = misestimateRatio(misestimate.factor);
  const arrow = misestimate.direction === 'under' ? '↑' : '↓';
  return Number.isFinite(ratio) ? `${arrow} ×${ratio.toFixed(ratio < 10 ? 1 : 0)}` : `${arrow} ∞`;
}

/** One line for a candidate that was cut before it got an id-bearing description. */
export function describeCandidate(candidate: CandidatePlan | { readonly description: string }): string {
  if ('description' in candidate) return candidate.description;
  const kinds = candidate.sourceKinds === 'all' ? 'all' : candidate.sourceKinds.join('+');
  const solvers = candidate.solverTiers ? ` (solvers ${candidate.solverTiers.join(', ')})` : '';
  return `${candidate.retrieval.join('+')} over ${kinds} → ${candidate.modelTier}/${candidate.reasoning}${solvers}, ${candidate.compression}, ${candidate.verification}`;
}
