import { describe, expect, it } from 'vitest';
import { ruleIntentAnalyzer } from '../planner/intent-analyzer';
import { demoPlanningContext } from '../planner/testing/demo-planning-context';
import type { CandidatePlan } from '../types';
import { measuredCacheRates } from './cache-hit-rate';
import { heuristicCostModel } from './heuristic-cost-model';
import { CACHE_HIT_BASE, CACHE_PRIOR_LOOKUPS } from './units';

describe('measuredCacheRates', () => {
  it('keeps the prior exactly while nothing was measured', () => {
    expect(measuredCacheRates(undefined).rate(0.05, 'gpt-4o-mini', 'incident')).toBe(0.05);
    expect(measuredCacheRates([]).rate(0.3, 'gpt-4o-mini', 'incident')).toBe(0.3);
    expect(measuredCacheRates([{ modelId: 'other', intentClass: 'incident', lookups: 100, hits: 90 }]).rate(0.05, 'gpt-4o-mini', 'incident')).toBe(0.05);
  });

  it('moves halfway to the measured rate after as many lookups as the prior counts for, and toward it with more', () => {
    const few = measuredCacheRates([{ modelId: 'm', intentClass: 'incident', lookups: CACHE_PRIOR_LOOKUPS, hits: CACHE_PRIOR_LOOKUPS }]);
    // Model level: (20 + 0.05·20)/40 = 0.525; intent level on top: (20 + 0.525·20)/40 = 0.7625.
    expect(few.rate(0.05, 'm', 'incident')).toBeCloseTo(0.7625, 10);
    // Offset (1600 + 20·1600/2020)/2020 ≈ 0.7999 and slope ≈ 0.0001, on the 0.05 grid: 0.80 and 0.
    const many = measuredCacheRates([{ modelId: 'm', intentClass: 'incident', lookups: 2000, hits: 1600 }]);
    expect(many.rate(0.05, 'm', 'incident')).toBeCloseTo(0.8, 10);
  });

  it('fingerprints what rate() reads: unchanged by a lookup that moves no rounded figure, changed by one that does', () => {
    const fingerprint = (lookups: number, hits: number) => measuredCacheRates([{ modelId: 'm', intentClass: 'incident', lookups, hits }]).fingerprint(['m', 'other'], 'incident');
    expect(fingerprint(1000, 500)).toBe(fingerprint(1001, 500));
    expect(fingerprint(1000, 500)).not.toBe(fingerprint(1000, 900));
    expect(measuredCacheRates(undefined).fingerprint(['m'], 'incident')).toBe(measuredCacheRates([{ modelId: 'x', intentClass: 'incident', lookups: 3, hits: 1 }]).fingerprint(['m'], 'incident'));
  });

  it("lends an intent class with no lookups its model's rate, shrunk to the prior", () => {
    const rates = measuredCacheRates([{ modelId: 'm', intentClass: 'incident', lookups: 180, hits: 180 }]);
    // (180 + 0.05·20)/200 = 0.905 for every other intent of the same model.
    expect(rates.rate(0.05, 'm', 'conceptual')).toBeCloseTo(0.905, 10);
  });
});

describe("the heuristic cost model's cache term", () => {
  const goal = 'Explain why deployment checkout-api failed';
  const intent = ruleIntentAnalyzer.analyze(goal);
  const plan: CandidatePlan = { id: 't', retrieval: ['bm25'], sourceKinds: 'all', topK: 20, modelTier: 'cheap', reasoning: 'single_shot', compression: 'none', verification: 'none', shape: 'sequential', approval: false };

  it('is the constant prior without measurements and the measured rate of the tier’s model with them', () => {
    const base = demoPlanningContext();
    expect(heuristicCostModel.estimate(plan, intent, base).cacheHit.value).toBeCloseTo(CACHE_HIT_BASE, 10);
    const measured = { ...base, modelCacheTallies: [{ modelId: 'gpt-4o-mini', intentClass: intent.primary, lookups: 400, hits: 300 }] };
    const cheap = heuristicCostModel.estimate(plan, intent, measured).cacheHit.value;
    expect(cheap).toBeGreaterThan(0.7);
    // Another tier's model keeps the prior: the tally is per model.
    expect(heuristicCostModel.estimate({ ...plan, modelTier: 'premium' }, intent, measured).cacheHit.value).toBeCloseTo(CACHE_HIT_BASE, 10);
    // With a positive cache weight the score rises with it.
    const weights = { acc: 1, cost: 1, lat: 1, risk: 1, hall: 1, loss: 1, cache: 1, vrf: 1 };
    expect(heuristicCostModel.score(heuristicCostModel.estimate(plan, intent, measured), weights).total).toBeGreaterThan(heuristicCostModel.score(heuristicCostModel.estimate(plan, intent, base), weights).total);
  });
});
