/**
 * tool_loop in the plan space (issue 15 point 2): offered only on a tier configured for tool calls,
 * cut with a capability reason on the others, absent while no tier can run it (the offline default);
 * its cost counts the tools' passages re-read by the later calls, and its quality gain is learned
 * from observed runs against one shot on the same tier (reasoner-gains.ts).
 */
import { describe, expect, it } from 'vitest';
import type { PlanningContext } from '../contracts/candidate-generator';
import { heuristicCostModel } from '../costmodel/heuristic-cost-model';
import { LearnedCostModel } from '../costmodel/learned-cost-model';
import { ObservationLearner, planShape, type LearningObservation } from '../costmodel/observation-learner';
import { ReasonerOutcomeTally, gainValues, resolveReasonerGains } from '../costmodel/reasoner-gains';
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

  it('learn their accuracy from observed runs: answering worse than one shot on the tier pulls the gain, and so the estimate, down', () => {
    const prior = heuristicCostModel.estimate(loop, intent, context).accuracy.value;
    const run = (index: number, shape: string, actual: number): LearningObservation => ({ runId: `${shape}-${index}`, planHash: 'h', estimator: 'heuristic-v1', field: 'accuracy', intentClass: intent.primary, estimate: prior, low: prior, high: prior, actual, observedAt: '2026-12-02T00:00:00Z', shape });
    const observed = Array.from({ length: 12 }, (_, index) => [run(index, planShape(loop), 0), run(index, planShape({ ...loop, reasoning: 'single_shot' }), 1)]).flat();
    const tally = new ReasonerOutcomeTally();
    for (const observation of observed) tally.add(observation);
    const gains = gainValues(resolveReasonerGains({}, tally));
    expect(gains.tool_loop?.[intent.primary]).toBeLessThan(-0.3);
    // The gain owns the reasoner's quality (reasoner-gain-ownership.test.ts): learned-v2 reads the one-shot runs' correction only.
    const learned = new LearnedCostModel(heuristicCostModel, ObservationLearner.from(observed));
    const withGains = { ...context, reasonerGains: gains };
    const oneShot = { ...loop, reasoning: 'single_shot' as const };
    expect(learned.estimate(loop, intent, withGains).accuracy.value).toBeLessThan(learned.estimate(oneShot, intent, withGains).accuracy.value - 0.05);
    expect(learned.estimate(loop, intent, withGains).accuracy.value).toBeLessThan(learned.estimate(loop, intent, context).accuracy.value);
  });
});
