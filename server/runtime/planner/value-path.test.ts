import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DEFAULT_WEIGHTS } from '../config/config-schema';
import type { CostModelPlugin } from '../contracts/cost-model';
import { ESTIMATE_FIELDS, FIELD_COUNT } from '../costmodel/estimate-fields';
import { heuristicCostModel } from '../costmodel/heuristic-cost-model';
import { LEARNED_FIELDS, LearnedCostModel } from '../costmodel/learned-cost-model';
import { type LearningObservation, ObservationLearner, planShape } from '../costmodel/observation-learner';
import { resolveWeights } from '../costmodel/plan-score';
import { isContextRuntimeError } from '../errors';
import { planOptimizer } from '../optimizer/plan-optimizer';
import type { Constraints } from '../types';
import { ruleCandidateGenerator } from './candidate-generator';
import { ruleIntentAnalyzer } from './intent-analyzer';
import { type PlanGoalResult, planGoal } from './plan-pipeline';
import { demoPlanningContext } from './testing/demo-planning-context';

/**
 * The planner scores, tests and prunes from point values when the cost model offers them
 * (estimateValues/scoreValues) and builds estimate objects only for the survivors. That path must
 * plan exactly as the object path: same values, same totals, same survivors, same rejections.
 */

const GOALS = [
  'Explain why deployment checkout-api failed',
  'What is the memory limit of checkout-api?',
  'Which commit changed the connection pool size and who approved it?',
  'Find request id 7f3a9c2e in the logs',
  'Compare the retry policy in the docs with what the config in the repository says',
];
const CONSTRAINTS: readonly Constraints[] = [{}, { max_cost_usd: 0.0005 }, { max_latency_seconds: 2 }, { require_citations: true, max_tokens: 2500 }];
const weights = resolveWeights(DEFAULT_WEIGHTS);

/** The heuristic behind a plain object: no value path, so planGoal estimates every candidate as objects. */
const objectsOnly: CostModelPlugin = {
  contract: heuristicCostModel.contract,
  version: heuristicCostModel.version,
  estimate: (...args) => heuristicCostModel.estimate(...args),
  score: (...args) => heuristicCostModel.score(...args),
};

const plan = (goal: string, constraints: Constraints, costModel: CostModelPlugin): PlanGoalResult | string => {
  try {
    return planGoal({ goal, context: demoPlanningContext(), constraints, weights, analyzer: ruleIntentAnalyzer, generator: ruleCandidateGenerator, costModel, optimizer: planOptimizer });
  } catch (error) {
    if (isContextRuntimeError(error)) return `${error.code}: ${error.message}`;
    throw error;
  }
};

/** Everything a plan result says, timings aside, as a digest (a full dump would bury the failure); the chosen id stays readable. */
const comparable = (result: PlanGoalResult | string) =>
  typeof result === 'string'
    ? result
    : `${result.chosen.candidate.id} ${createHash('sha256').update(JSON.stringify({ ...result, timings: undefined })).digest('hex')}`;

describe('planning from point values', () => {
  it('gives the heuristic estimate()’s values and score()’s total for every candidate', () => {
    const context = demoPlanningContext();
    const row = new Float64Array(FIELD_COUNT);
    let checked = 0;
    for (const goal of GOALS) {
      const intent = ruleIntentAnalyzer.analyze(goal);
      for (const candidate of ruleCandidateGenerator.generate(intent, context).candidates) {
        heuristicCostModel.estimateValues(candidate, intent, context, row, 0);
        const estimates = heuristicCostModel.estimate(candidate, intent, context);
        expect([...row]).toEqual(ESTIMATE_FIELDS.map((field) => estimates[field].value));
        expect(heuristicCostModel.scoreValues(row, 0, weights)).toBe(heuristicCostModel.score(estimates, weights).total);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(1000);
  });

  it('chooses, ranks and rejects exactly as planning every candidate as objects, with and without constraints', () => {
    let infeasible = 0;
    for (const goal of GOALS) {
      for (const constraints of CONSTRAINTS) {
        const fromValues = plan(goal, constraints, heuristicCostModel);
        expect(comparable(fromValues)).toBe(comparable(plan(goal, constraints, objectsOnly)));
        if (typeof fromValues === 'string') infeasible++;
        else if (fromValues.candidates.some((entry) => !entry.feasible)) infeasible++;
      }
    }
    // The constraints above do cut plans: infeasible survivors and NO_FEASIBLE_PLAN take the same path.
    expect(infeasible).toBeGreaterThan(0);
  });

  it('builds estimate objects only for the plans that survive dominance', () => {
    let estimated = 0;
    const counting: CostModelPlugin = {
      contract: heuristicCostModel.contract,
      version: heuristicCostModel.version,
      estimate: (...args) => {
        estimated++;
        return heuristicCostModel.estimate(...args);
      },
      score: (...args) => heuristicCostModel.score(...args),
      estimateValues: (...args) => heuristicCostModel.estimateValues(...args),
      scoreValues: (...args) => heuristicCostModel.scoreValues(...args),
    };
    const result = plan(GOALS[0], {}, counting);
    if (typeof result === 'string') throw new Error(result);
    expect(estimated).toBe(result.candidates.length);
    expect(result.rejected.filter((entry) => entry.stage === 'dominated').length).toBeGreaterThan(result.candidates.length);
  });

  it('moves the learned fields as learned-v2 does, from a few observations (Bayes) to many (conformal)', () => {
    const intents = GOALS.map((goal) => ruleIntentAnalyzer.analyze(goal));
    const context = demoPlanningContext();
    const shapes = [...new Set(intents.flatMap((intent) => ruleCandidateGenerator.generate(intent, context).candidates.slice(0, 200).map(planShape)))];
    let seed = 7;
    const random = () => (seed = (seed * 16_807) % 2_147_483_647) / 2_147_483_647;
    for (const runs of [4, 12, 40]) {
      const observations: LearningObservation[] = [];
      for (let run = 0; run < runs; run++) {
        for (const field of LEARNED_FIELDS) {
          const estimate = field === 'accuracy' ? random() : 100 + random() * 4000;
          const actual = field === 'accuracy' ? Number(random() > 0.4) : estimate * (0.5 + 2 * random());
          const features = random() > 0.3 ? { goalTokens: Math.floor(random() * 60), sourceTokens: Math.floor(random() * 1e6), topK: 20 } : undefined;
          observations.push({ runId: `r${run}`, planHash: 'h', estimator: 'heuristic-v1', field, intentClass: intents[run % intents.length].primary, estimate, low: estimate / 2, high: estimate * 2, actual, observedAt: '2026-12-05T00:00:00Z', shape: shapes[Math.floor(random() * Math.min(6, shapes.length))], ...(features ? { features } : {}) });
        }
      }
      const learned = new LearnedCostModel(heuristicCostModel, ObservationLearner.from(observations));
      expect(learned.estimateValues).toBeTypeOf('function');
      const viaObjects: CostModelPlugin = { contract: learned.contract, version: learned.version, estimate: (...args) => learned.estimate(...args), score: (...args) => learned.score(...args) };
      for (const goal of GOALS) {
        const fromValues = plan(goal, {}, learned);
        expect(comparable(fromValues)).toBe(comparable(plan(goal, {}, viaObjects)));
      }
    }
  });
});
