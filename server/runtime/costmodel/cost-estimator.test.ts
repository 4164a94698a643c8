import { describe, expect, it } from 'vitest';
import type { Observation, ObservationStorePlugin } from '../contracts/observation-store';
import type { CandidateEstimates, Estimate } from '../types';
import { CostEstimator } from './cost-estimator';

function memoryStore(): ObservationStorePlugin {
  const rows: Observation[] = [];
  return { contract: 'observation-store/v1', append: async (batch) => void rows.push(...batch), all: async () => rows };
}
const estimate = (value: number, low: number, high: number): Estimate => ({ value, low, high });
const estimates = (tokens: number): CandidateEstimates => ({
  accuracy: estimate(0.7, 0.5, 0.9),
  costUsd: estimate(0, 0, 0),
  latencySeconds: estimate(1, 0.5, 2),
  tokens: estimate(tokens, tokens * 0.5, tokens * 1.5),
  risk: estimate(0.2, 0, 0.4),
  hallucination: estimate(0.1, 0, 0.3),
  contextLoss: estimate(0.1, 0, 0.3),
  cacheHit: estimate(0.3, 0, 1),
  verificationConfidence: estimate(0.7, 0.5, 0.9),
});

describe('CostEstimator', () => {
  it('records every field with an actual and reports MAE, coverage and the p90 residual interval per intent class', async () => {
    const estimator = new CostEstimator(memoryStore(), 'heuristic-v1');
    await estimator.observe({ runId: 'r1', planHash: 'h', intentClass: 'incident', estimates: estimates(1000) }, { tokens: 1200, latencySeconds: 0.8, accuracy: 1 });
    await estimator.observe({ runId: 'r2', planHash: 'h', intentClass: 'incident', estimates: estimates(1000) }, { tokens: 1800 });
    await estimator.observe({ runId: 'r3', planHash: 'h', intentClass: 'conceptual', estimates: estimates(500) }, { tokens: 500 });
    const statistics = await estimator.statistics();
    const incidentTokens = statistics.find((row) => row.field === 'tokens' && row.intentClass === 'incident')!;
    expect(incidentTokens.count).toBe(2);
    expect(incidentTokens.meanAbsoluteError).toBe(500);
    expect(incidentTokens.intervalCoverage).toBe(0.5);
    expect(incidentTokens.p90Interval[0]).toBeCloseTo(230);
    expect(incidentTokens.p90Interval[1]).toBeCloseTo(770);
    expect(statistics.find((row) => row.field === 'tokens' && row.intentClass === 'all')!.count).toBe(3);
    expect(statistics.find((row) => row.field === 'accuracy' && row.intentClass === 'incident')!.count).toBe(1);
    expect(statistics.some((row) => row.field === 'risk')).toBe(false);
  });
});
