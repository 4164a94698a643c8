import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CostEstimator } from '../../runtime/costmodel/cost-estimator';
import { learningStateFor } from '../../runtime/costmodel/calibration-state';
import { LEARNED_ESTIMATOR, planShape } from '../../runtime/costmodel/observation-learner';
import type { CandidateEstimates, Estimate } from '../../runtime/types';
import { openStores, type Stores } from './open-stores';

const root = mkdtempSync(path.join(tmpdir(), 'cr-observations-'));
const dataDir = path.join(root, 'pglite');
let stores: Stores;

const estimate = (value: number, low: number, high: number): Estimate => ({ value, low, high });
const estimates = (tokens: number): CandidateEstimates => ({
  accuracy: estimate(0.7, 0.5, 0.9),
  costUsd: estimate(0.001, 0.0004, 0.0025),
  latencySeconds: estimate(1, 0.5, 3),
  tokens: estimate(tokens, tokens * 0.5, tokens * 2),
  risk: estimate(0.2, 0.1, 0.45),
  hallucination: estimate(0.1, 0.05, 0.25),
  contextLoss: estimate(0.1, 0.05, 0.25),
  cacheHit: estimate(0.05, 0.025, 0.15),
  verificationConfidence: estimate(0.7, 0.55, 0.85),
});
const choice = { modelTier: 'local', reasoning: 'single_shot', retrieval: ['bm25', 'exact'] } as const;

beforeAll(async () => {
  stores = await openStores({ dataDir });
});

afterAll(async () => {
  await stores?.close();
  rmSync(root, { recursive: true, force: true });
});

describe('PgObservationStore + CostEstimator persistence', () => {
  it('records heuristic and learned rows with the plan shape, and reloads statistics and the learner after a restart', async () => {
    const estimator = new CostEstimator(stores.observationStore, 'heuristic-v1');
    // Actual tokens are 3× the heuristic's estimate: v1 misses its [0.5×, 2×] band every time.
    for (let index = 0; index < 25; index++) {
      await estimator.observe({ runId: `run-${index}`, planHash: 'h', intentClass: 'incident', estimates: estimates(1000), choice }, { tokens: 3000 + ((index * 7) % 25) * 10, latencySeconds: 0.9, accuracy: 1 });
    }
    const before = await estimator.statistics();
    const v1Tokens = before.find((row) => row.field === 'tokens' && row.intentClass === 'incident')!;
    expect(v1Tokens).toMatchObject({ estimator: 'heuristic-v1', count: 25, intervalCoverage: 0 });
    const rows = await stores.observationStore.all({ estimator: LEARNED_ESTIMATOR });
    expect(rows).toHaveLength(75);
    expect(rows.every((row) => row.shape === planShape(choice))).toBe(true);
    // Prequential v2: once it has seen a few runs its interval covers the 3× actuals.
    const learnedTokens = rows.filter((row) => row.field === 'tokens');
    expect(learnedTokens.slice(10).every((row) => row.actual >= row.low && row.actual <= row.high)).toBe(true);

    await stores.close();
    stores = await openStores({ dataDir });

    const reloaded = new CostEstimator(stores.observationStore, 'heuristic-v1');
    expect(await reloaded.statistics()).toEqual(before);
    const state = await learningStateFor(stores.observationStore, 'heuristic-v1');
    expect(state.learner.count('tokens', 'incident', planShape(choice))).toBe(25);
    const corrected = state.learner.predict('tokens', 'incident', planShape(choice), estimates(1000).tokens);
    expect(corrected.method).toBe('conformal');
    // Shrunk toward the prior by 3 pseudo-samples: 25/28 of the observed log ratio (≈ 2760, not 3120).
    expect(corrected.estimate.value).toBeGreaterThan(2700);
    expect(corrected.estimate.value).toBeLessThan(3000);
    // p05–p95 of the 25 actuals 3000…3240 (step 10): order statistics 1.3 and 24.7 of 25, just inside the
    // extremes, each stretched away from the shrunk centre by 28/27 (its run left out of the mean: n + 3 = 28).
    expect(corrected.estimate.low).toBeGreaterThan(3010);
    expect(corrected.estimate.low).toBeLessThan(3020);
    expect(corrected.estimate.high).toBeGreaterThan(3230);
    expect(corrected.estimate.high).toBeLessThan(3260);
    const recent = await stores.observationStore.recent({ field: 'tokens', estimator: 'heuristic-v1', limit: 5 });
    expect(recent.map((row) => row.runId)).toEqual(['run-24', 'run-23', 'run-22', 'run-21', 'run-20']);
  });

  it('stores each run\'s request features and reads rows without them back featureless', async () => {
    const estimator = new CostEstimator(stores.observationStore, 'features-test');
    const features = { goalTokens: 42, sourceTokens: 12_500.5, topK: 8 };
    await estimator.observe({ runId: 'with-features', planHash: 'h', intentClass: 'conceptual', estimates: estimates(1000), choice, features }, { tokens: 1200 });
    await estimator.observe({ runId: 'without-features', planHash: 'h', intentClass: 'conceptual', estimates: estimates(1000), choice }, { tokens: 1200 });
    const rows = await stores.observationStore.all({ estimator: 'features-test' });
    expect(rows.find((row) => row.runId === 'with-features')).toMatchObject({ features });
    expect(rows.find((row) => row.runId === 'without-features')).not.toHaveProperty('features');
  });

  it('keeps what reasoner gains learn from across a restart: each run\'s outcome under its tier and reasoner', async () => {
    const estimator = new CostEstimator(stores.observationStore, 'gains-test');
    const debate = { ...choice, reasoning: 'debate' } as const;
    for (let index = 0; index < 6; index++) {
      await estimator.observe({ runId: `one-${index}`, planHash: 'h', intentClass: 'incident', estimates: estimates(1000), choice }, { accuracy: Number(index < 2) });
      await estimator.observe({ runId: `debate-${index}`, planHash: 'h', intentClass: 'incident', estimates: estimates(1000), choice: debate }, { accuracy: 1, tokens: 1000 });
    }
    await stores.close();
    stores = await openStores({ dataDir });
    const { outcomes } = await learningStateFor(stores.observationStore, 'gains-test');
    // Laplace-smoothed: one shot 3/8, debate 7/8 on the same tier: (7/8 − 3/8) / (1 − 3/8) = 0.8, over 6 comparable runs.
    expect(outcomes.observed('debate', 'incident')).toEqual({ gain: expect.closeTo(0.8, 10), runs: 6 });
  });
});
