/**
 * tool_loop in the plan space (issue 15 point 2): offered only on a tier configured for tool calls,
 * cut with a capability reason on the others, absent while no tier can run it (the offline default);
 * its cost counts the tools' passages re-read by the later calls, and its quality gain is a prior
 * that learned-v2 corrects from observed runs of its plan shape.
 */
import { describe, expect, it } from 'vitest';
import type { PlanningContext } from '../contracts/candidate-generator';
import { heuristicCostModel } from '../costmodel/heuristic-cost-model';
import { LearnedCostModel } from '../costmodel/learned-cost-model';
import { ObservationLearner, planShape, type LearningObservation } from '../costmodel/observation-learner';
import { ruleCandidateGenerator } from './candidate-generator';
import { ruleIntentAnalyzer } from './intent-analyzer';
import { demoPlanningContext } from './testing/demo-planning-context';

const GOAL = 'Explain why deployment checkout-api failed';
const intent = ruleIntentAnalyzer.analyze(GOAL);

function withToolLoop(toolTiers: readonly string[]): PlanningContext {
  const base = demoPlanningContext();
  return {
    ...base,
    tiers: base.tiers.map((tier) => (toolTiers.includes(tier.name) ? { ...tier, capabilities: { ...tier.capabilities, toolCalls: true } } : tier)),
    reasoners: [...base.reasoners, { strategy: 'tool_loop', expectedModelCalls: 2, requiresToolCalls: true }],
  };
}

describe('tool_loop candidates', () => {
  it('are not enumerated while no tier calls tools: the plan space is what it was', () => {
    const without = ruleCandidateGenerator.generate(intent, demoPlanningContext());
    const registered = ruleCandidateGenerator.generate(intent, withToolLoop([]));
    expect(registered).toEqual(without);
  });

  it('are offered on the tool-calling tier only; the others are cut with the capability named', () => {
    const set = ruleCandidateGenerator.generate(intent, withToolLoop(['cheap']));
    const loops = set.candidates.filter((candidate) => candidate.reasoning === 'tool_loop');
    expect(loops.length).toBeGreaterThan(0);
    expect(new Set(loops.map((candidate) => candidate.modelTier))).toEqual(new Set(['cheap']));
    const cuts = set.rejected.filter((entry) => entry.rule === 'capability.tool_calls');
    expect(cuts.map((entry) => entry.reason)).toEqual(expect.arrayContaining([expect.stringMatching(/tool_loop .* tier premium is not configured for tool calls \(tools: true\)/)]));
    expect(set.candidates.length + set.rejected.reduce((sum, entry) => sum + Number(/^(\d+)/.exec('description' in entry.candidate ? entry.candidate.description : '0')![1]), 0)).toBe(set.enumerated);
  });
});

describe('tool_loop estimates', () => {
  const context = withToolLoop(['cheap']);
  const set = ruleCandidateGenerator.generate(intent, context);
  const loop = set.candidates.find((candidate) => candidate.reasoning === 'tool_loop' && candidate.shape === 'sequential')!;
  const oneShot = set.candidates.find((candidate) => candidate.id === loop.id.replace('|tool_loop|', '|single_shot|'))!;

  it('cost two calls and the passages the tools add, and gain accuracy only by a resolved gain (no constant prior)', () => {
    const loopEstimate = heuristicCostModel.estimate(loop, intent, context);
    const oneEstimate = heuristicCostModel.estimate(oneShot, intent, context);
    expect(loopEstimate.tokens.value).toBeGreaterThan(2 * oneEstimate.tokens.value);
    expect(loopEstimate.costUsd.value).toBeGreaterThan(2 * oneEstimate.costUsd.value);
    expect(loopEstimate.accuracy.value).toBe(oneEstimate.accuracy.value);
    const gained = heuristicCostModel.estimate(loop, intent, { ...context, reasonerGains: { tool_loop: { [intent.primary]: 0.15 } } });
    expect(gained.accuracy.value).toBeGreaterThan(oneEstimate.accuracy.value);
  });

  it('learn their accuracy from observed runs of their shape: runs that answered badly pull the estimate down', () => {
    const prior = heuristicCostModel.estimate(loop, intent, context).accuracy.value;
    const observed: LearningObservation[] = Array.from({ length: 12 }, (_, index) => ({ runId: `r${index}`, planHash: 'h', estimator: 'heuristic-v1', field: 'accuracy', intentClass: intent.primary, estimate: prior, low: prior, high: prior, actual: 0, observedAt: '2026-12-02T00:00:00Z', shape: planShape(loop) }));
    const learned = new LearnedCostModel(heuristicCostModel, ObservationLearner.from(observed));
    expect(learned.estimate(loop, intent, context).accuracy.value).toBeLessThan(prior - 0.2);
  });
});
