import { describe, expect, it } from 'vitest';
import { DEFAULT_WEIGHTS } from '../config/config-schema';
import { checkConstraints } from '../constraints/hard-constraints';
import { heuristicCostModel } from '../costmodel/heuristic-cost-model';
import { resolveWeights } from '../costmodel/plan-score';
import { ContextRuntimeError } from '../errors';
import { ruleCandidateGenerator } from '../planner/candidate-generator';
import { ruleIntentAnalyzer } from '../planner/intent-analyzer';
import { demoPlanningContext } from '../planner/testing/demo-planning-context';
import type { CandidatePlan, Constraints, Estimate, ScoredCandidate } from '../types';
import { pruneDominated } from './dominance';
import { nearestCandidates, planOptimizer, violationSeverity } from './plan-optimizer';

const weights = resolveWeights(DEFAULT_WEIGHTS);

function scoreAll(goal: string, constraints: Constraints = {}): ScoredCandidate[] {
  const context = demoPlanningContext();
  const intent = ruleIntentAnalyzer.analyze(goal);
  return ruleCandidateGenerator.generate(intent, context).candidates.map((candidate) => {
    const estimates = heuristicCostModel.estimate(candidate, intent, context);
    const violations = checkConstraints(estimates, candidate, constraints, context, intent);
    return { candidate, estimates, score: heuristicCostModel.score(estimates, weights), feasible: violations.length === 0, violations };
  });
}

/** Reference choice: best total among feasible plans, ties to the smaller id. */
function bruteForceChoice(scored: readonly ScoredCandidate[]): ScoredCandidate {
  return scored.filter((entry) => entry.feasible).reduce((best, entry) => (entry.score.total > best.score.total || (entry.score.total === best.score.total && entry.candidate.id < best.candidate.id) ? entry : best));
}

const point = (value: number): Estimate => ({ value, low: value, high: value });
function synthetic(id: string, values: { cost: number; accuracy: number }, total: number, feasible = true): ScoredCandidate {
  const candidate = { id } as CandidatePlan;
  const estimates = {
    accuracy: point(values.accuracy), costUsd: point(values.cost), latencySeconds: point(1), tokens: point(100), risk: point(0.1),
    hallucination: point(0.1), contextLoss: point(0), cacheHit: point(0), verificationConfidence: point(0),
  };
  const violations = feasible ? [] : [{ constraint: 'max_cost_usd', limit: 0, estimated: values.cost, message: 'over' }];
  return { candidate, estimates, score: { total, components: {} as never, weights }, feasible, violations };
}

describe('PlanOptimizer.choose', () => {
  it.each([
    ['Explain why deployment checkout-api failed', {}],
    ['Find request req-8f3a2b9c1d in the logs', { max_cost_usd: 0.002 }],
    ['What is a circuit breaker?', { require_citations: true, max_latency_seconds: 5 }],
    ["What is Alice Johnson's salary?", {}],
  ] as const)('picks the same plan as brute force for %s', (goal, constraints) => {
    const scored = scoreAll(goal, constraints);
    const result = planOptimizer.choose(scored, constraints);
    expect(result.chosen.candidate.id).toBe(bruteForceChoice(scored).candidate.id);
    expect(result.ranked[0]).toBe(result.chosen);
    expect(result.ranked.length + result.dominated.length).toBe(scored.length);
    // Ranked: feasible first, then by score.
    for (let index = 1; index < result.ranked.length; index++) {
      const [previous, current] = [result.ranked[index - 1], result.ranked[index]];
      expect(Number(previous.feasible) >= Number(current.feasible)).toBe(true);
      if (previous.feasible === current.feasible) expect(previous.score.total).toBeGreaterThanOrEqual(current.score.total);
    }
  });

  it('records dominated plans with the plan that dominates them', () => {
    const scored = scoreAll('Explain why deployment checkout-api failed');
    const result = planOptimizer.choose(scored, {});
    expect(result.dominated.length).toBeGreaterThan(0);
    const byId = new Map(scored.map((entry) => [entry.candidate.id, entry]));
    for (const rejection of result.dominated.slice(0, 50)) {
      expect(rejection).toMatchObject({ stage: 'dominated', rule: 'optimizer.dominated' });
      const loser = byId.get((rejection.candidate as CandidatePlan).id)!;
      const winner = byId.get(/^dominated by (\S+):/.exec(rejection.reason)![1])!;
      expect(winner.estimates.costUsd.value).toBeLessThanOrEqual(loser.estimates.costUsd.value);
      expect(winner.estimates.accuracy.value).toBeGreaterThanOrEqual(loser.estimates.accuracy.value);
      expect(winner.estimates.latencySeconds.value).toBeLessThanOrEqual(loser.estimates.latencySeconds.value);
    }
  });

  it('never prunes a feasible plan in favour of an infeasible one', () => {
    const cheapInfeasible = synthetic('a', { cost: 0, accuracy: 0.9 }, 0.9, false);
    const dearFeasible = synthetic('b', { cost: 1, accuracy: 0.5 }, 0.1, true);
    const { kept } = pruneDominated([cheapInfeasible, dearFeasible]);
    expect(kept.map((entry) => entry.candidate.id)).toEqual(['a', 'b']);
    expect(planOptimizer.choose([cheapInfeasible, dearFeasible], {}).chosen.candidate.id).toBe('b');
  });

  it('breaks score ties by candidate id, whatever the input order', () => {
    const first = synthetic('plan-a', { cost: 0.1, accuracy: 0.5 }, 0.3);
    const second = synthetic('plan-b', { cost: 0.05, accuracy: 0.4 }, 0.3);
    expect(planOptimizer.choose([second, first], {}).chosen.candidate.id).toBe('plan-a');
    expect(planOptimizer.choose([first, second], {}).chosen.candidate.id).toBe('plan-a');
  });

  it('throws NO_FEASIBLE_PLAN listing the five nearest plans with their violations', () => {
    const constraints = { max_latency_seconds: 0.01, max_cost_usd: 0 };
    const scored = scoreAll('Explain why deployment checkout-api failed', constraints);
    let caught: unknown;
    try {
      planOptimizer.choose(scored, constraints);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ContextRuntimeError);
    const error = caught as ContextRuntimeError;
    expect(error.code).toBe('NO_FEASIBLE_PLAN');
    expect(error.message).toContain('max_latency_seconds ≤ 0.01');
    const nearest = error.details.nearest as { candidateId: string; violations: { constraint: string }[] }[];
    expect(nearest).toHaveLength(5);
    // Local plans cost nothing, so the nearest break only the latency limit.
    expect(nearest[0].violations.map((violation) => violation.constraint)).toEqual(['max_latency_seconds']);
    for (let index = 1; index < nearest.length; index++) expect(nearest[index].violations.length).toBeGreaterThanOrEqual(nearest[index - 1].violations.length);
  });

  it('nearestCandidates equals a full sort by (violations, overshoot, score, id)', () => {
    const constraints = { max_latency_seconds: 2, max_cost_usd: 0.0005, max_tokens: 2500 };
    const scored = scoreAll('Explain why deployment checkout-api failed', constraints);
    const reference = [...scored]
      .sort(
        (left, right) =>
          left.violations.length - right.violations.length ||
          violationSeverity(left.violations) - violationSeverity(right.violations) ||
          Number(right.feasible) - Number(left.feasible) ||
          right.score.total - left.score.total ||
          (left.candidate.id < right.candidate.id ? -1 : 1),
      )
      .slice(0, 5);
    expect(nearestCandidates(scored).map((entry) => entry.candidate.id)).toEqual(reference.map((entry) => entry.candidate.id));
  });
});

