/**
 * The planner chooses among reasoners on learned gains, not constants (issue 15 point 2): on a free
 * loopback tier a mixture costs nothing, so a hand-set prior alone used to win every goal with it
 * (session 23). Unmeasured, one shot wins; observed runs where the mixture answered better move it.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_WEIGHTS } from '../config/config-schema';
import type { PlanningContext } from '../contracts/candidate-generator';
import { heuristicCostModel } from '../costmodel/heuristic-cost-model';
import { resolveWeights } from '../costmodel/plan-score';
import { ReasonerOutcomeTally, gainValues, resolveReasonerGains } from '../costmodel/reasoner-gains';
import { planOptimizer } from '../optimizer/plan-optimizer';
import { ruleCandidateGenerator } from './candidate-generator';
import { ruleIntentAnalyzer } from './intent-analyzer';
import { planGoal } from './plan-pipeline';
import { demoPlanningContext } from './testing/demo-planning-context';

const GOAL = 'Explain why deployment checkout-api failed';

/** The demo context with a free, fast loopback model as its only model tier, and every mixture registered. */
function freeLoopback(reasonerGains?: PlanningContext['reasonerGains']): PlanningContext {
  const base = demoPlanningContext();
  const local = base.tiers.find((tier) => tier.name === 'local')!;
  const loopback = { ...local, name: 'loopback', rank: 1, capabilities: { ...local.capabilities, provider: 'openai-compatible', modelId: 'loop-1', local: false, qualityPrior: 0.7 } };
  return {
    ...base,
    tiers: [local, loopback],
    reasoners: [...base.reasoners, { strategy: 'plan_worker_critic', expectedModelCalls: 6, needsInstructions: true }, { strategy: 'debate', expectedModelCalls: 3, needsInstructions: true }],
    ...(reasonerGains ? { reasonerGains } : {}),
  };
}

const chosenReasoner = (context: PlanningContext) =>
  planGoal({ goal: GOAL, context, constraints: {}, weights: resolveWeights(DEFAULT_WEIGHTS), analyzer: ruleIntentAnalyzer, generator: ruleCandidateGenerator, costModel: heuristicCostModel, optimizer: planOptimizer }).chosen.candidate.reasoning;

describe('reasoner choice on a free loopback tier', () => {
  it('keeps one shot while no mixture has a measured gain (the shipped table has none for them)', () => {
    const context = freeLoopback(gainValues(resolveReasonerGains({})));
    expect(context.reasoners.map((reasoner) => reasoner.strategy)).toEqual(expect.arrayContaining(['plan_worker_critic', 'debate']));
    expect(chosenReasoner(context)).toBe('single_shot');
  });

  it('picks plan_worker_critic once observed runs show it answers better on the loopback tier', () => {
    const tally = new ReasonerOutcomeTally();
    const observe = (reasoner: string, runs: number, passed: number) => {
      for (let index = 0; index < runs; index += 1) tally.add({ field: 'accuracy', intentClass: 'incident', shape: `loopback/${reasoner}/bm25`, actual: Number(index < passed) });
    };
    // Runs on another tier teach nothing about this one.
    observe('single_shot', 40, 0);
    for (let index = 0; index < 40; index += 1) tally.add({ field: 'accuracy', intentClass: 'incident', shape: 'premium/plan_worker_critic/bm25', actual: 1 });
    expect(chosenReasoner(freeLoopback(gainValues(resolveReasonerGains({}, tally))))).toBe('single_shot');
    observe('single_shot', 40, 20);
    observe('plan_worker_critic', 40, 38);
    expect(chosenReasoner(freeLoopback(gainValues(resolveReasonerGains({}, tally))))).toBe('plan_worker_critic');
  });
});
