import { describe, expect, it } from 'vitest';
import { DEFAULT_WEIGHTS } from '../config/config-schema';
import { heuristicCostModel } from '../costmodel/heuristic-cost-model';
import { resolveWeights } from '../costmodel/plan-score';
import type { RunResult } from '../explain/explain-types';
import { planOptimizer } from '../optimizer/plan-optimizer';
import { ruleCandidateGenerator } from '../planner/candidate-generator';
import { ruleIntentAnalyzer } from '../planner/intent-analyzer';
import { planGoal } from '../planner/plan-pipeline';
import { demoPlanningContext } from '../planner/testing/demo-planning-context';
import { BanditLearner, learningSettingsOf } from './bandit-learner';
import { FEATURE_DIMENSION, intentFeatures, isQuestion } from './intent-features';
import { armOf } from './plan-arms';

const GOAL = 'Explain why deployment checkout-api failed';
const planned = (goal = GOAL) =>
  planGoal({ goal, context: demoPlanningContext(), constraints: {}, weights: resolveWeights(DEFAULT_WEIGHTS), analyzer: ruleIntentAnalyzer, generator: ruleCandidateGenerator, costModel: heuristicCostModel, optimizer: planOptimizer });

const settings = (overrides: Partial<Parameters<typeof learningSettingsOf>[0]> = {}) =>
  learningSettingsOf({ enabled: true, alpha: 0.3, top_k_arms: 3, cost_penalty: 0.1, latency_penalty: 0.1, cost_scale_usd: 0.05, latency_scale_seconds: 10, ...overrides });

/** A finished run as the facade returns it: only the fields the judge reads. */
function finishedRun(runId: string, learning: RunResult['explain']['learning'], coverage: number): RunResult {
  return {
    runId,
    status: 'completed',
    answer: 'an answer [1]',
    citations: [],
    caveats: [],
    verification: { method: 'citation', passed: coverage > 0.5, confidence: coverage, checks: [{ name: 'citation_coverage', passed: coverage > 0.5, score: coverage, detail: '' }] },
    explain: { learning, analyze: { totals: { actual: { tokens: 100, costUsd: 0, latencySeconds: 1 } } } } as unknown as RunResult['explain'],
  };
}

describe('intent features', () => {
  it('is a bounded vector of fixed length with a bias, one primary class and question-ness', () => {
    const intent = ruleIntentAnalyzer.analyze('Which company acquired the maker of the iPod?');
    const features = intentFeatures(intent);
    expect(features).toHaveLength(FEATURE_DIMENSION);
    expect(features[0]).toBe(1);
    expect(features.slice(1, 7).reduce((sum, value) => sum + value, 0)).toBe(1);
    expect(features.every((value) => value >= 0 && value <= 1)).toBe(true);
    expect(isQuestion(intent.goal)).toBe(true);
    expect(isQuestion('Vitamin D lowers the risk of fracture.')).toBe(false);
  });
});

describe('BanditLearner', () => {
  it('agrees with the optimizer before it has learned anything, and explains the estimate', async () => {
    const learner = new BanditLearner(undefined, settings());
    const plan = planned();
    const decision = learner.decide(plan.candidates, plan.intent)!;
    expect(decision.candidate.candidate.id).toBe(plan.chosen.candidate.id);
    expect(decision.explain).toMatchObject({ arm: armOf(plan.chosen.candidate), explored: false, optimizerCandidateId: plan.chosen.candidate.id, estimate: { mean: 0 } });
    expect(decision.explain.estimate.bonus).toBeGreaterThan(0);
    expect(new Set(decision.explain.arms.map((arm) => arm.arm)).size).toBe(decision.explain.arms.length);
    expect(decision.explain.arms.length).toBeLessThanOrEqual(3);
  });

  it('learns off the response path: observeRun returns before the arm changes, drain applies it', async () => {
    const learner = new BanditLearner(undefined, settings());
    const plan = planned();
    const decision = learner.decide(plan.candidates, plan.intent)!;
    learner.observeRun(finishedRun('run-1', decision.explain, 0.1));
    expect(await learner.armSummaries()).toEqual([]);
    expect(learner.queueStatus().pending).toBe(1);
    await learner.drain();
    const [arm] = await learner.armSummaries();
    // quality 0.1 − penalty 0.1 × (1 s / 10 s)
    expect(arm).toMatchObject({ arm: decision.explain.arm, pulls: 1 });
    expect(arm.meanReward).toBeCloseTo(0.09, 12);
  });

  it('moves to the arm that earns more, then exploits it', async () => {
    // α = 1 makes an untried arm's bonus (‖x‖ > 1) exceed any reward in [0,1], so every arm gets
    // tried; safety and budget are opened wide here (safe-exploration.test.ts covers them).
    const learner = new BanditLearner(undefined, settings({ alpha: 1, safe_margin: 1, exploration_share: 1 }));
    const plan = planned();
    const first = learner.decide(plan.candidates, plan.intent)!;
    const better = first.explain.arms[1].arm;
    for (let round = 0; round < 60; round++) {
      const decision = learner.decide(plan.candidates, plan.intent)!;
      learner.observeRun(finishedRun(`run-${round}`, decision.explain, decision.explain.arm === better ? 0.9 : 0.2));
      await learner.drain();
    }
    const last = learner.decide(plan.candidates, plan.intent)!;
    expect(last.explain.arm).toBe(better);
    expect(last.explain.explored).toBe(false);
    expect(last.candidate.candidate.id).not.toBe(plan.chosen.candidate.id);
  });

  it('ignores runs it did not decide and runs that did not end, and learns a failed run as quality 0', async () => {
    const learner = new BanditLearner(undefined, settings());
    learner.observeRun(finishedRun('no-decision', undefined, 1));
    const plan = planned();
    const decision = learner.decide(plan.candidates, plan.intent)!;
    learner.observeRun({ ...finishedRun('cancelled', decision.explain, 1), status: 'cancelled' });
    learner.observeRun({ ...finishedRun('awaiting', decision.explain, 1), status: 'awaiting_approval' });
    await learner.drain();
    expect(await learner.armSummaries()).toEqual([]);
    learner.observeRun({ ...finishedRun('failed', decision.explain, 1), status: 'failed', verification: undefined, answer: undefined });
    await learner.drain();
    const [arm] = await learner.armSummaries();
    // quality 0 − penalty 0.1 × (1 s / 10 s)
    expect(arm).toMatchObject({ arm: decision.explain.arm, pulls: 1 });
    expect(arm.meanReward).toBeCloseTo(-0.01, 12);
  });

  it('does not learn from a run the model-context cache answered: its $0 spend is the cache, not the plan', async () => {
    const learner = new BanditLearner(undefined, settings());
    const plan = planned();
    const decision = learner.decide(plan.candidates, plan.intent)!;
    const run = finishedRun('served', decision.explain, 0.9);
    const nodes = [{ nodeId: 'reason', kind: 'reason', modelCalls: [{ tier: 'cheap', modelId: 'loop-1', cache: 'hit', savedTokens: 920 }] }];
    learner.observeRun({ ...run, explain: { ...run.explain, analyze: { ...run.explain.analyze!, nodes } } as unknown as RunResult['explain'] });
    await learner.drain();
    expect(await learner.armSummaries()).toEqual([]);
    // The same run with the call missing the cache is learned.
    learner.observeRun({ ...run, explain: { ...run.explain, analyze: { ...run.explain.analyze!, nodes: [{ ...nodes[0], modelCalls: [{ ...nodes[0].modelCalls[0], cache: 'miss' }] }] } } as unknown as RunResult['explain'] });
    await learner.drain();
    expect((await learner.armSummaries()).map((arm) => arm.pulls)).toEqual([1]);
  });

  it('plans from memory when the store cannot be read, and retries the load next time', async () => {
    const errors: unknown[] = [];
    let calls = 0;
    const store = { loadArms: async () => { calls += 1; if (calls === 1) throw new Error('database down'); return []; } } as unknown as ConstructorParameters<typeof BanditLearner>[0];
    const learner = new BanditLearner(store, settings(), (error) => errors.push(error));
    await learner.ready();
    const plan = planned();
    expect(learner.decide(plan.candidates, plan.intent)?.candidate.candidate.id).toBe(plan.chosen.candidate.id);
    expect(errors).toHaveLength(1);
    await learner.ready();
    expect(calls).toBe(2);
  });

  it('explores within its budget only, marks each exploration, and never risks more than the window allows', async () => {
    const learner = new BanditLearner(undefined, settings({ alpha: 0.2, exploration_share: 0.1, safe_margin: 0.05, safe_window: 100 }));
    const plan = planned();
    const decisions = [];
    for (let round = 0; round < 100; round++) {
      const decision = learner.decide(plan.candidates, plan.intent)!;
      decisions.push(decision.explain);
      learner.observeRun(finishedRun(`run-${round}`, decision.explain, 0.5));
      await learner.drain();
    }
    const explored = decisions.filter((decision) => decision.explored).length;
    expect(explored).toBeGreaterThan(0);
    expect(explored).toBeLessThanOrEqual(10);
    expect(decisions.reduce((sum, decision) => sum + decision.risked, 0)).toBeLessThanOrEqual(0.05 * 100 + 1e-9);
    expect(decisions.every((decision) => decision.risked <= decision.allowance + 1e-9)).toBe(true);
    // Runs that did not explore play the greedy arm: with equal rewards everywhere, the default plan.
    const greedy = decisions.filter((decision) => !decision.explored);
    expect(new Set(greedy.map((decision) => decision.candidateId))).toEqual(new Set([plan.chosen.candidate.id]));
  });

  it('gives the same plans to the same history: a replay of the decisions and runs reproduces every choice', async () => {
    const replay = async () => {
      const learner = new BanditLearner(undefined, settings({ alpha: 0.5, exploration_share: 0.2 }), undefined, () => 0);
      const plan = planned();
      const chosen: string[] = [];
      for (let round = 0; round < 20; round++) {
        const decision = learner.decide(plan.candidates, plan.intent)!;
        chosen.push(decision.explain.candidateId);
        learner.observeRun(finishedRun(`run-${round}`, decision.explain, decision.explain.arm === decision.explain.arms[0].arm ? 0.6 : 0.4));
        await learner.drain();
      }
      return chosen;
    };
    expect(await replay()).toEqual(await replay());
  });

  it('needs a store for feedback', async () => {
    await expect(new BanditLearner(undefined, settings()).feedback('run', 'ann', 'up')).rejects.toMatchObject({ code: 'INVALID_CONFIG' });
  });
});
