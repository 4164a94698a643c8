import { describe, expect, it } from 'vitest';
import { ruleIntentAnalyzer } from '../planner/intent-analyzer';
import { demoPlanningContext } from '../planner/testing/demo-planning-context';
import type { CandidatePlan } from '../types';
import { heuristicCostModel } from './heuristic-cost-model';

const base = demoPlanningContext();
const context = { ...base, reasoners: [...base.reasoners, { strategy: 'decomposition', expectedModelCalls: 2 }] };
const plan = (reasoning: CandidatePlan['reasoning']): CandidatePlan => ({
  id: reasoning, retrieval: ['bm25'], sourceKinds: 'all', topK: 20, modelTier: 'cheap', reasoning, compression: 'none', verification: 'none', shape: 'sequential', approval: false,
});

describe('the cost model on a decomposition', () => {
  it('claims no quality gain it has not measured: with no gain in the planning context, one shot and a decomposition estimate alike', () => {
    const multiHop = ruleIntentAnalyzer.analyze('What is the difference between the retry policy of billing-worker and the one of ledger-export?');
    const incident = ruleIntentAnalyzer.analyze('Explain why deployment checkout-api failed');
    expect(multiHop.primary).toBe('multi_hop');
    expect(incident.primary).toBe('incident');
    const accuracy = (goalIntent: typeof incident, reasoning: CandidatePlan['reasoning']) => heuristicCostModel.estimate(plan(reasoning), goalIntent, context).accuracy.value;
    // The planner resolves gains (reasoner-gains.ts) into the context; a context with none has every gain 0.
    expect(accuracy(multiHop, 'decomposition')).toBe(accuracy(multiHop, 'single_shot'));
    expect(accuracy(incident, 'decomposition')).toBe(accuracy(incident, 'single_shot'));
  });

  it('uses the resolved gain for its reasoner and intent class, and 0 elsewhere', () => {
    const multiHop = ruleIntentAnalyzer.analyze('What is the difference between the retry policy of billing-worker and the one of ledger-export?');
    const incident = ruleIntentAnalyzer.analyze('Explain why deployment checkout-api failed');
    const measured = { ...context, reasonerGains: { decomposition: { multi_hop: 0.2 } } };
    const estimate = (goalIntent: typeof incident, reasoning: CandidatePlan['reasoning'], on = measured) => heuristicCostModel.estimate(plan(reasoning), goalIntent, on);
    const quality = (reasoning: CandidatePlan['reasoning']) => estimate(multiHop, reasoning).accuracy.value;
    const prior = context.tiers.find((tier) => tier.name === 'cheap')!.capabilities.qualityPrior;
    // accuracy = grounding · quality, quality = q + g(1 − q): the ratio is the gain's.
    expect(quality('decomposition') / quality('single_shot')).toBeCloseTo((prior + 0.2 * (1 - prior)) / prior, 10);
    expect(estimate(incident, 'decomposition').accuracy.value).toBe(estimate(incident, 'single_shot').accuracy.value);
    const negative = { ...context, reasonerGains: { decomposition: { multi_hop: -0.2 } } };
    expect(estimate(multiHop, 'decomposition', negative).accuracy.value).toBeLessThan(estimate(multiHop, 'single_shot', negative).accuracy.value);
  });

  it('pays for its second call but earns no critic or shared-prefix cache credit (its hops read different contexts)', () => {
    const incident = ruleIntentAnalyzer.analyze('Explain why deployment checkout-api failed');
    const single = heuristicCostModel.estimate(plan('single_shot'), incident, context);
    const decomposed = heuristicCostModel.estimate(plan('decomposition'), incident, context);
    expect(decomposed.costUsd.value).toBeCloseTo(single.costUsd.value * 2, 12);
    expect(decomposed.hallucination.value).toBe(single.hallucination.value);
    expect(decomposed.cacheHit.value).toBe(single.cacheHit.value);
  });
});
