import { describe, expect, it } from 'vitest';
import { DEFAULT_WEIGHTS } from '../config/config-schema';
import { planOptimizer } from '../optimizer/plan-optimizer';
import { ruleCandidateGenerator } from '../planner/candidate-generator';
import { ruleIntentAnalyzer } from '../planner/intent-analyzer';
import { planGoal } from '../planner/plan-pipeline';
import { demoPlanningContext } from '../planner/testing/demo-planning-context';
import type { CostModelPlugin } from '../contracts/cost-model';
import type { EstimatedField } from '../types';
import { heuristicCostModel } from './heuristic-cost-model';
import { estimatorExplain, LearnedCostModel } from './learned-cost-model';
import { ObservationLearner, planShape, type LearningObservation } from './observation-learner';
import { resolveWeights } from './plan-score';
import { PRIOR_PSEUDO_SAMPLES } from './units';

const GOAL = 'Explain why deployment checkout-api failed';
const plan = (costModel: CostModelPlugin) =>
  planGoal({ goal: GOAL, context: demoPlanningContext(), constraints: {}, weights: resolveWeights(DEFAULT_WEIGHTS), analyzer: ruleIntentAnalyzer, generator: ruleCandidateGenerator, costModel, optimizer: planOptimizer });

function observations(field: EstimatedField, shape: string, estimate: number, actual: number, count: number): LearningObservation[] {
  const intentClass = ruleIntentAnalyzer.analyze(GOAL).primary;
  return Array.from({ length: count }, (_, index) => ({ runId: `r${index}`, planHash: 'h', estimator: 'heuristic-v1', field, intentClass, estimate, low: estimate, high: estimate, actual, observedAt: '2026-12-02T00:00:00Z', shape }));
}

describe('LearnedCostModel', () => {
  it('plans exactly as the heuristic with no observations, and says the prior decided', () => {
    const prior = plan(heuristicCostModel);
    const learned = plan(new LearnedCostModel(heuristicCostModel, new ObservationLearner()));
    expect(learned.chosen).toEqual(prior.chosen);
    expect(learned.candidates.map((candidate) => candidate.candidate.id)).toEqual(prior.candidates.map((candidate) => candidate.candidate.id));
    const explain = estimatorExplain(heuristicCostModel, prior.chosen.candidate, prior.intent, demoPlanningContext(), new ObservationLearner());
    expect(explain).toMatchObject({ name: 'heuristic-v1', samples: 0, fields: { costUsd: { samples: 0, group: 'prior' } } });
  });

  it('moves an estimate toward what runs cost, shrunk by n / (n + k) while runs are few', () => {
    const prior = plan(heuristicCostModel).chosen;
    const shape = planShape(prior.candidate);
    const estimate = prior.estimates.latencySeconds.value;
    const learner = ObservationLearner.from(observations('latencySeconds', shape, estimate, estimate * 10, 5));
    const corrected = new LearnedCostModel(heuristicCostModel, learner).estimate(prior.candidate, plan(heuristicCostModel).intent, demoPlanningContext());
    const logRatio = Math.log(corrected.latencySeconds.value + 0.001) - Math.log(estimate + 0.001);
    const observed = Math.log(estimate * 10 + 0.001) - Math.log(estimate + 0.001);
    expect(logRatio).toBeCloseTo((observed * 5) / (5 + PRIOR_PSEUDO_SAMPLES), 9);
    // Fields with no observations keep the prior's numbers exactly.
    expect(corrected.costUsd).toEqual(prior.estimates.costUsd);
    expect(corrected.risk).toEqual(prior.estimates.risk);
  });

  it('changes the plan when runs show the default plan shape answers badly for this intent', () => {
    const prior = plan(heuristicCostModel);
    const shape = planShape(prior.chosen.candidate);
    // Another shape the heuristic ranks lower, observed answering well: each shape has its own group,
    // so the intent-wide correction (which would move every shape alike) does not decide.
    const other = prior.candidates.find((candidate) => candidate.feasible && planShape(candidate.candidate) !== shape)!;
    const otherShape = planShape(other.candidate);
    const learner = ObservationLearner.from([
      ...observations('accuracy', shape, prior.chosen.estimates.accuracy.value, 0, 40),
      ...observations('accuracy', otherShape, other.estimates.accuracy.value, 1, 40),
    ]);
    const learned = plan(new LearnedCostModel(heuristicCostModel, learner));
    expect(planShape(learned.chosen.candidate)).toBe(otherShape);
    const explain = estimatorExplain(heuristicCostModel, prior.chosen.candidate, prior.intent, demoPlanningContext(), learner);
    expect(explain).toMatchObject({ name: 'learned-v2', prior: 'heuristic-v1', fields: { accuracy: { samples: 40, group: 'intent+shape' } } });
    expect(explain.priorEstimates.accuracy).toEqual(prior.chosen.estimates.accuracy);
  });
});
