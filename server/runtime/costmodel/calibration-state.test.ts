import { describe, expect, it } from 'vitest';
import { OBSERVATION_STORE_CONTRACT, type Observation, type ObservationStorePlugin } from '../contracts/observation-store';
import type { EstimatedField, IntentClass } from '../types';
import { learningStateFor } from './calibration-state';

const observation = (runId: string, field: EstimatedField, intentClass: IntentClass, estimate: number, actual: number): Observation => ({
  runId, planHash: 'p', estimator: 'learned-v2', field, intentClass, estimate, low: estimate / 2, high: estimate * 2, actual, observedAt: '2026-12-01T00:00:00.000Z',
});

describe('the learner state calibration reads', () => {
  it('summarises one field × intent class, counting what is recorded after the load', async () => {
    const stored = [observation('r1', 'latencySeconds', 'incident', 2, 3), observation('r1', 'tokens', 'incident', 100, 500), observation('r2', 'latencySeconds', 'conceptual', 1, 1)];
    const store: ObservationStorePlugin = { contract: OBSERVATION_STORE_CONTRACT, append: async () => undefined, all: async () => stored };
    const state = await learningStateFor(store, 'learned-v2');
    expect(state.calibration('latencySeconds', 'incident')).toMatchObject({ count: 1, meanAbsoluteError: 1, intervalCoverage: 1 });
    expect(state.calibration('tokens', 'incident')).toMatchObject({ count: 1, intervalCoverage: 0 });
    expect(state.calibration('costUsd', 'incident').count).toBe(0);
    state.record([observation('r3', 'latencySeconds', 'incident', 2, 10), observation('r3', 'latencySeconds', 'multi_hop', 2, 2)]);
    expect(state.calibration('latencySeconds', 'incident')).toMatchObject({ count: 2, meanAbsoluteError: 4.5, intervalCoverage: 0.5 });
    expect(state.calibration('latencySeconds', 'multi_hop').count).toBe(1);
    expect(state.calibration('latencySeconds', 'conceptual').count).toBe(1);
  });
});
