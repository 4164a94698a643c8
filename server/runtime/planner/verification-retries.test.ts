import { describe, expect, it } from 'vitest';
import type { RetrieverCapabilities } from '../contracts/retriever';
import type { TierInfo } from '../contracts/router';
import { planVerificationRetries, type RetryPlanInput } from './verification-retries';

const tier = (name: string, rank: number, provider: string, qualityPrior: number, usd: number, local = false): TierInfo => ({
  name, rank, available: true,
  capabilities: { provider, modelId: name, contextWindow: 100_000, inputUsdPerMillion: usd, outputUsdPerMillion: usd * 4, local, firstTokenSeconds: 0.2, secondsPerOutputToken: 0.01, qualityPrior, maxOutputTokens: 1000 },
});
const retriever = (method: string, sendsPassagesOffMachine = false): RetrieverCapabilities => ({ method, available: true, requires: [], latencyMs: 5, recallPrior: { default: 0.6 }, ...(sendsPassagesOffMachine ? { sendsPassagesOffMachine } : {}) });
const base: RetryPlanInput = {
  candidate: { id: 'c', retrieval: ['bm25'], sourceKinds: 'all', topK: 10, modelTier: 'cheap', reasoning: 'decomposition', compression: 'none', verification: 'citation_grounded', shape: 'sequential', approval: false },
  planCostUsd: 0.001, planModelTokens: 2000,
  // The extractive reader tops the fallback ladder but is the weakest reader: never an escalation.
  tiers: [tier('cheap', 0, 'openai', 0.7, 1), tier('premium', 1, 'anthropic', 0.9, 10), tier('local', 2, 'extractive', 0.45, 0, true)],
  retrievers: [retriever('bm25'), retriever('vector'), retriever('llm_rerank', true)],
  singleCallStrategies: ['single_shot'], localOnly: false, constraints: {}, maxAttempts: 3, judge: true, meanChunkTokens: 50,
  reasonEstimate: { tokens: 2000, costUsd: 0.001, latencySeconds: 1 }, maxOutputTokens: 400,
};

describe('retries after a failed required verification', () => {
  it('escalates each attempt: top_k doubles, another retriever joins, the tier climbs by quality, a single-shot reasoner replaces the hops', () => {
    const plan = planVerificationRetries(base);
    expect(plan.judge).toMatchObject({ tier: 'cheap' });
    expect(plan.retries.map((retry) => [retry.k, retry.methods, retry.tier, retry.strategy])).toEqual([
      [20, ['bm25', 'vector'], 'premium', 'single_shot'],
      [40, ['bm25', 'vector', 'llm_rerank'], 'premium', 'single_shot'],
    ]);
    expect(plan.retries[0].why).toBe('top_k 10 → 20, + vector, tier cheap → premium, reasoner decomposition → single_shot');
  });

  it('keeps a local-only plan on local tiers and retrievers, and asks no judge when only the extractive reader is there', () => {
    const plan = planVerificationRetries({ ...base, localOnly: true, candidate: { ...base.candidate, modelTier: 'local' } });
    expect(plan.judge).toBeUndefined();
    expect(plan.retries.map((retry) => [retry.tier, retry.methods])).toEqual([['local', ['bm25', 'vector']], ['local', ['bm25', 'vector']]]);
  });

  it('plans only the attempts whose worst case fits max_cost_usd, and says why the rest were left out', () => {
    const unbounded = planVerificationRetries(base);
    const firstRetryCost = unbounded.retries[0].reasonEstimate.costUsd;
    const cap = base.planCostUsd + unbounded.judge!.estimate.costUsd + firstRetryCost * 1.5;
    const plan = planVerificationRetries({ ...base, constraints: { max_cost_usd: cap } });
    expect(plan.retries).toHaveLength(0);
    expect(plan.budgetNote).toMatch(/^attempts 2–3 left out: they would exceed max_cost_usd/);
    expect(planVerificationRetries({ ...base, maxAttempts: 1 }).retries).toEqual([]);
  });
});
