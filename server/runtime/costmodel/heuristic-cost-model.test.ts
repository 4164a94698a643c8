import { describe, expect, it } from 'vitest';
import { isContextRuntimeError } from '../errors';
import { ruleIntentAnalyzer } from '../planner/intent-analyzer';
import { demoPlanningContext, demoSources } from '../planner/testing/demo-planning-context';
import type { CandidatePlan, EstimatedField } from '../types';
import { heuristicCostModel } from './heuristic-cost-model';
import { CHARS_PER_TOKEN, OUTPUT_TOKENS_PER_ANSWER, PROMPT_OVERHEAD_TOKENS } from './units';

const goal = 'Explain why deployment checkout-api failed';
const intent = ruleIntentAnalyzer.analyze(goal);
const context = demoPlanningContext();

const plan = (overrides: Partial<CandidatePlan> = {}): CandidatePlan => ({
  id: 'test',
  retrieval: ['bm25'],
  sourceKinds: 'all',
  topK: 20,
  modelTier: 'cheap',
  reasoning: 'single_shot',
  compression: 'none',
  verification: 'none',
  shape: 'sequential',
  approval: false,
  ...overrides,
});
const estimate = (overrides: Partial<CandidatePlan> = {}, planningContext = context) => heuristicCostModel.estimate(plan(overrides), intent, planningContext);

describe('HeuristicCostModel', () => {
  it('computes tokens and cost from source sizes, finalK and tier prices (units.ts formulas)', () => {
    const sources = demoSources();
    const meanChunk = sources.reduce((sum, source) => sum + source.tokenCount, 0) / sources.reduce((sum, source) => sum + source.chunkCount, 0);
    const input = PROMPT_OVERHEAD_TOKENS + Math.ceil(goal.length / CHARS_PER_TOKEN) + 8 * meanChunk;
    const result = estimate();
    expect(result.tokens.value).toBe(Math.round(input + OUTPUT_TOKENS_PER_ANSWER));
    expect(result.costUsd.value).toBeCloseTo((input * 0.15 + OUTPUT_TOKENS_PER_ANSWER * 0.6) / 1e6, 12);
  });

  it('orders tiers by price and charges a multi-call reasoner per call', () => {
    expect(estimate({ modelTier: 'local' }).costUsd.value).toBe(0);
    expect(estimate({ modelTier: 'premium' }).costUsd.value).toBeGreaterThan(estimate({ modelTier: 'cheap' }).costUsd.value * 10);
    const single = estimate();
    const mixture = estimate({ reasoning: 'plan_worker_critic' });
    expect(Math.abs(mixture.tokens.value - single.tokens.value * 3)).toBeLessThanOrEqual(2);
    expect(mixture.costUsd.value).toBeCloseTo(single.costUsd.value * 3, 12);
    // No gain is claimed on a constant: unmeasured, the mixture estimates one shot's accuracy at three times the price.
    expect(mixture.accuracy.value).toBe(single.accuracy.value);
    const measured = estimate({ reasoning: 'plan_worker_critic' }, { ...context, reasonerGains: { plan_worker_critic: { incident: 0.2 } } });
    expect(measured.accuracy.value).toBeGreaterThan(single.accuracy.value);
  });

  it('compression trades tokens for context loss', () => {
    const none = estimate();
    const selected = estimate({ compression: 'sentence_select' });
    expect(selected.tokens.value).toBeLessThan(none.tokens.value);
    expect(selected.contextLoss.value).toBeGreaterThan(none.contextLoss.value);
    expect(selected.accuracy.value).toBeLessThan(none.accuracy.value);
  });

  it('fusing equally good rankers raises recall, fusing a weaker one dilutes it; a parallel shape overlaps retrieval', () => {
    const equalDense = { ...context, retrievers: context.retrievers.map((retriever) => (retriever.method === 'dense' ? { ...retriever, recallPrior: { ...retriever.recallPrior, incident: 0.7 } } : retriever)) };
    expect(estimate({ retrieval: ['bm25', 'dense'] }, equalDense).accuracy.value).toBeGreaterThan(estimate({ retrieval: ['bm25'] }, equalDense).accuracy.value);
    // The demo's dense prior for incidents (0.6) is below bm25's (0.7): the fused list is worse than bm25 alone.
    expect(estimate({ retrieval: ['bm25', 'dense'] }).accuracy.value).toBeLessThan(estimate({ retrieval: ['bm25'] }).accuracy.value);
    const sequential = estimate({ retrieval: ['bm25', 'dense'] });
    const parallel = estimate({ retrieval: ['bm25', 'dense'], shape: 'parallel' });
    expect(parallel.latencySeconds.value).toBeCloseTo(sequential.latencySeconds.value - 0.012, 9);
  });

  it('rates a pair with a measured fusion ratio at the better member times that ratio, in place of the formula, for that intent class only', () => {
    const equalDense = (fusionRatios?: Record<string, Partial<Record<string, number>>>) => ({
      ...context,
      retrievers: context.retrievers.map((retriever) => (retriever.method === 'dense' ? { ...retriever, recallPrior: { ...retriever.recallPrior, incident: 0.7 }, ...(fusionRatios ? { fusionRatios } : {}) } : retriever)),
    });
    const alone = estimate({ retrieval: ['bm25'] }, equalDense()).accuracy.value;
    // The formula rates equally good rankers fused above either; fusion measured at a loss (0.95) rates them below.
    expect(estimate({ retrieval: ['bm25', 'dense'] }, equalDense()).accuracy.value).toBeGreaterThan(alone);
    const lost = estimate({ retrieval: ['bm25', 'dense'] }, equalDense({ bm25: { incident: 0.95 } })).accuracy.value;
    expect(lost).toBeCloseTo(alone * 0.95, 9);
    // Measured for another class only: the incident goal keeps the formula.
    expect(estimate({ retrieval: ['dense', 'bm25'] }, equalDense({ bm25: { multi_hop: 0.95 } })).accuracy.value).toBeGreaterThan(alone);
    // A measured gain lifts the pair above its better member by that much.
    expect(estimate({ retrieval: ['dense', 'bm25'] }, equalDense({ bm25: { incident: 1.02 } })).accuracy.value).toBeCloseTo(alone * 1.02, 9);
  });

  it('adds what a model-calling retriever spends per query to the plan cost and tokens', () => {
    const llm = { method: 'llm-rerank', available: true, requires: [], latencyMs: 900, recallPrior: { default: 0.8 }, costUsdPerQuery: 0.0025, tokensPerQuery: 6000 };
    const withLlm = { ...context, retrievers: [...context.retrievers, llm] };
    const plain = estimate({ retrieval: ['bm25'] }, withLlm);
    const reranked = estimate({ retrieval: ['llm-rerank'] }, withLlm);
    expect(reranked.costUsd.value - plain.costUsd.value).toBeCloseTo(0.0025, 9);
    expect(reranked.tokens.value - plain.tokens.value).toBe(6000);
  });

  it('gives a method set the same figures whether its array is shared (memoised per context) or fresh, and keeps sets apart', () => {
    const shared = ['bm25', 'dense'];
    const first = estimate({ retrieval: shared });
    // Same array again (the memo answers), a fresh equal array, then another set through the same context.
    expect(estimate({ retrieval: shared })).toEqual(first);
    expect(estimate({ retrieval: ['bm25', 'dense'] })).toEqual(first);
    expect(estimate({ retrieval: ['bm25'] }).latencySeconds.value).toBeLessThan(first.latencySeconds.value);
    // Parallel reads the slowest method from the same memo entry: 12 ms less than the sum, as above.
    expect(estimate({ retrieval: shared, shape: 'parallel' }).latencySeconds.value).toBeCloseTo(first.latencySeconds.value - 0.012, 9);
  });

  it('verification adds confidence and lowers hallucination and risk; approval lowers risk', () => {
    const bare = estimate();
    const verified = estimate({ verification: 'citation_grounded' });
    expect(bare.verificationConfidence).toEqual({ value: 0, low: 0, high: 0 });
    expect(verified.verificationConfidence.value).toBeGreaterThan(0);
    expect(verified.hallucination.value).toBeLessThan(bare.hallucination.value);
    expect(verified.risk.value).toBeLessThan(bare.risk.value);
    expect(estimate({ approval: true }).risk.value).toBeLessThan(bare.risk.value);
  });

  it('a window too small for the context truncates it and counts the cut as context loss', () => {
    const tiny = demoPlanningContext();
    const tiers = tiny.tiers.map((tier) => (tier.name === 'local' ? { ...tier, capabilities: { ...tier.capabilities, contextWindow: 1200 } } : tier));
    const truncated = estimate({ modelTier: 'local' }, { ...tiny, tiers });
    const full = estimate({ modelTier: 'local' });
    expect(truncated.tokens.value).toBeLessThan(full.tokens.value);
    expect(truncated.contextLoss.value).toBeGreaterThan(0.2);
  });

  it('every interval contains its value and probabilities stay in [0,1]', () => {
    const fields: EstimatedField[] = ['accuracy', 'costUsd', 'latencySeconds', 'tokens', 'risk', 'hallucination', 'contextLoss', 'cacheHit', 'verificationConfidence'];
    for (const overrides of [{}, { modelTier: 'premium', reasoning: 'plan_worker_critic' as const, verification: 'citation' as const, compression: 'clip' as const }]) {
      const result = estimate(overrides);
      for (const field of fields) {
        const { low, value, high } = result[field];
        expect(low, field).toBeLessThanOrEqual(value);
        expect(value, field).toBeLessThanOrEqual(high);
        expect(Number.isFinite(high), field).toBe(true);
      }
      for (const field of ['accuracy', 'risk', 'hallucination', 'contextLoss', 'cacheHit', 'verificationConfidence'] as const) {
        expect(result[field].low).toBeGreaterThanOrEqual(0);
        expect(result[field].high).toBeLessThanOrEqual(1);
      }
    }
  });

  it('assumes finalK chunks when the context reports no sources', () => {
    const empty = demoPlanningContext({ sources: [] });
    expect(estimate({}, empty).tokens.value).toBeGreaterThan(PROMPT_OVERHEAD_TOKENS + OUTPUT_TOKENS_PER_ANSWER);
  });

  it('rejects a candidate naming a tier the context does not list', () => {
    let caught: unknown;
    try {
      estimate({ modelTier: 'gpt-9' });
    } catch (error) {
      caught = error;
    }
    expect(isContextRuntimeError(caught) && caught.code).toBe('INTERNAL');
    expect((caught as Error).message).toContain('gpt-9');
  });
});
