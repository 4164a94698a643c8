import { describe, expect, it } from 'vitest';
import { heuristicCostModel } from '../costmodel/heuristic-cost-model';
import { ruleIntentAnalyzer } from '../planner/intent-analyzer';
import { demoPlanningContext, demoSources } from '../planner/testing/demo-planning-context';
import type { CandidatePlan } from '../types';
import { checkConstraints } from './hard-constraints';

const context = demoPlanningContext();
const intent = ruleIntentAnalyzer.analyze('Explain why deployment checkout-api failed');
const plan = (overrides: Partial<CandidatePlan> = {}): CandidatePlan => ({
  id: 'test',
  retrieval: ['bm25'],
  sourceKinds: 'all',
  topK: 20,
  modelTier: 'premium',
  reasoning: 'plan_worker_critic',
  compression: 'none',
  verification: 'none',
  shape: 'sequential',
  approval: false,
  ...overrides,
});
const check = (candidate: CandidatePlan, constraints: Parameters<typeof checkConstraints>[2], planningContext = context, goalIntent = intent) =>
  checkConstraints(heuristicCostModel.estimate(candidate, goalIntent, planningContext), candidate, constraints, planningContext, goalIntent);

describe('checkConstraints', () => {
  it('passes a plan inside every limit', () => {
    expect(check(plan({ modelTier: 'local', reasoning: 'single_shot', verification: 'citation' }), { max_cost_usd: 1, max_latency_seconds: 60, max_tokens: 100_000, require_citations: true, require_verification: true })).toEqual([]);
  });

  it('reports each numeric limit against the point estimate', () => {
    const candidate = plan();
    const estimates = heuristicCostModel.estimate(candidate, intent, context);
    const violations = checkConstraints(estimates, candidate, { max_cost_usd: 0.001, max_latency_seconds: 1, max_tokens: 1000 }, context, intent);
    expect(violations.map((violation) => violation.constraint)).toEqual(['max_cost_usd', 'max_latency_seconds', 'max_tokens']);
    expect(violations[0]).toMatchObject({ limit: 0.001, estimated: estimates.costUsd.value });
    expect(violations[2]).toMatchObject({ limit: 1000, estimated: estimates.tokens.value });
    expect(violations[0].message).toMatch(/^max_cost_usd: estimated .* USD exceeds the limit of 0\.001 USD \(point estimate compared\)$/);
  });

  it('a limit exactly at the estimate is satisfied', () => {
    const candidate = plan();
    const estimates = heuristicCostModel.estimate(candidate, intent, context);
    expect(checkConstraints(estimates, candidate, { max_tokens: estimates.tokens.value }, context, intent)).toEqual([]);
  });

  it('require_verification and require_citations need a citation verifier', () => {
    expect(check(plan(), { require_verification: true }).map((violation) => violation.constraint)).toEqual(['require_verification']);
    expect(check(plan(), { require_citations: true })).toEqual([expect.objectContaining({ constraint: 'require_citations', estimated: 'none' })]);
    expect(check(plan({ verification: 'citation_grounded' }), { require_citations: true, require_verification: true })).toEqual([]);
  });

  it('sensitive goals, local-only policies and sensitive sources forbid remote tiers', () => {
    const sensitive = ruleIntentAnalyzer.analyze("What is Alice Johnson's salary?");
    expect(check(plan(), {}, context, sensitive)[0].message).toBe('sensitive_local_only: the goal is sensitive, but tier premium is not local');
    const localOnly = demoPlanningContext({ policy: { localOnly: true } });
    expect(check(plan(), {}, localOnly)[0].constraint).toBe('sensitive_local_only');
    const sources = demoSources().map((source) => (source.kind === 'metrics' ? { ...source, sensitive: true } : source));
    const withSensitive = demoPlanningContext({ sources });
    expect(check(plan(), {}, withSensitive)[0].message).toContain('the scope includes a sensitive source');
    expect(check(plan({ sourceKinds: ['logs', 'docs'] }), {}, withSensitive)).toEqual([]);
    expect(check(plan({ modelTier: 'local' }), {}, withSensitive, sensitive)).toEqual([]);
  });
});
