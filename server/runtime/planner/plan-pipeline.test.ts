import { describe, expect, it } from 'vitest';
import { DEFAULT_WEIGHTS } from '../config/config-schema';
import type { PlanningContext } from '../contracts/candidate-generator';
import { heuristicCostModel } from '../costmodel/heuristic-cost-model';
import { resolveWeights } from '../costmodel/plan-score';
import { ContextRuntimeError } from '../errors';
import { planOptimizer } from '../optimizer/plan-optimizer';
import type { Constraints, PlanScoreWeights } from '../types';
import { ruleCandidateGenerator } from './candidate-generator';
import { ruleIntentAnalyzer } from './intent-analyzer';
import { planGoal } from './plan-pipeline';
import { demoPlanningContext } from './testing/demo-planning-context';

const DEMO_GOAL = 'Explain why deployment checkout-api failed';

const plan = (goal: string, options: { context?: PlanningContext; constraints?: Constraints; weights?: PlanScoreWeights } = {}) =>
  planGoal({
    goal,
    context: options.context ?? demoPlanningContext(),
    constraints: options.constraints ?? {},
    weights: options.weights ?? resolveWeights(DEFAULT_WEIGHTS),
    analyzer: ruleIntentAnalyzer,
    generator: ruleCandidateGenerator,
    costModel: heuristicCostModel,
    optimizer: planOptimizer,
  });

describe('planGoal', () => {
  it('plans the demo goal end to end', () => {
    const result = plan(DEMO_GOAL);
    expect(result.intent.primary).toBe('incident');
    expect(result.enumerated).toBeGreaterThanOrEqual(100);
    expect(result.chosen.feasible).toBe(true);
    expect(result.candidates[0]).toBe(result.chosen);
    expect(result.costModelVersion).toBe('heuristic-v1');
    expect(result.rejected.some((entry) => entry.stage === 'dominated')).toBe(true);
    expect(result.timings.totalMs).toBeGreaterThanOrEqual(result.timings.estimateMs);
  });

  it('is deterministic: same inputs (in fresh objects) choose the identical plan', () => {
    const first = plan(DEMO_GOAL, { context: demoPlanningContext() });
    const second = plan(DEMO_GOAL, { context: demoPlanningContext() });
    expect(second.chosen.candidate.id).toBe(first.chosen.candidate.id);
    expect(second.candidates.map((entry) => entry.candidate.id)).toEqual(first.candidates.map((entry) => entry.candidate.id));
  });

  it('accepts an already analysed intent (plan-cache path) and plans the same', () => {
    const intent = ruleIntentAnalyzer.analyze(DEMO_GOAL);
    const result = planGoal({
      intent,
      context: demoPlanningContext(),
      constraints: {},
      weights: resolveWeights(DEFAULT_WEIGHTS),
      analyzer: ruleIntentAnalyzer,
      generator: ruleCandidateGenerator,
      costModel: heuristicCostModel,
      optimizer: planOptimizer,
    });
    expect(result.chosen.candidate.id).toBe(plan(DEMO_GOAL).chosen.candidate.id);
  });

  it('sensitive goals run on a local tier only', () => {
    const result = plan("What is Alice Johnson's salary?");
    expect(result.candidates.every((entry) => entry.candidate.modelTier === 'local')).toBe(true);
  });

  it('high-risk goals get an approval gate and a verifier', () => {
    const chosen = plan('Rollback deployment checkout-api in production').chosen.candidate;
    expect(chosen.approval).toBe(true);
    expect(chosen.verification).not.toBe('none');
  });

  it('a zero budget chooses a free local plan; require_citations a citation verifier', () => {
    expect(plan(DEMO_GOAL, { constraints: { max_cost_usd: 0 } }).chosen.candidate.modelTier).toBe('local');
    expect(plan(DEMO_GOAL, { constraints: { require_citations: true } }).chosen.candidate.verification).toMatch(/^citation/);
  });

  it('weight overrides move the choice: cost-heavy picks cheaper, accuracy-heavy picks more accurate', () => {
    const frugal = plan(DEMO_GOAL, { weights: resolveWeights(DEFAULT_WEIGHTS, { cost: 10, acc: 0.1 }) }).chosen;
    const exacting = plan(DEMO_GOAL, { weights: resolveWeights(DEFAULT_WEIGHTS, { acc: 10, cost: 0, lat: 0 }) }).chosen;
    expect(frugal.estimates.costUsd.value).toBeLessThan(exacting.estimates.costUsd.value);
    expect(exacting.estimates.accuracy.value).toBeGreaterThan(frugal.estimates.accuracy.value);
    expect(exacting.candidate.modelTier).toBe('premium');
  });

  it('NO_FEASIBLE_PLAN carries the nearest plans and the rule cuts', () => {
    let caught: unknown;
    try {
      plan(DEMO_GOAL, { constraints: { max_latency_seconds: 0.001 } });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ContextRuntimeError);
    const details = (caught as ContextRuntimeError).details;
    expect((caught as ContextRuntimeError).code).toBe('NO_FEASIBLE_PLAN');
    expect(details.nearest).toHaveLength(5);
    expect(details.enumerated).toBeGreaterThanOrEqual(100);
    expect(Array.isArray(details.rejected)).toBe(true);
  });

  it('NO_FEASIBLE_PLAN when rules cut everything, saying so', () => {
    const context = demoPlanningContext({ policy: { localOnly: true } });
    const withoutLocal = { ...context, tiers: context.tiers.filter((tier) => !tier.capabilities.local) };
    let caught: unknown;
    try {
      plan(DEMO_GOAL, { context: withoutLocal });
    } catch (error) {
      caught = error;
    }
    expect((caught as ContextRuntimeError).code).toBe('NO_FEASIBLE_PLAN');
    expect((caught as ContextRuntimeError).details.why).toContain('cut by a capability, policy or intent rule');
    expect((caught as ContextRuntimeError).details.rejected).toContainEqual(expect.objectContaining({ rule: 'policy.local_only' }));
  });
});
