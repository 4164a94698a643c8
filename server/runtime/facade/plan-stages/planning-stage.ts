/**
 * Stages `candidates`, `cost_model` and `optimizer` (planGoal, pure and in memory) and `learning`:
 * the online bandit (server/runtime/learning) may pick another of the top feasible plan shapes.
 */
import type { PlanningContext } from '../../contracts/candidate-generator';
import type { CostModelPlugin } from '../../contracts/cost-model';
import type { RuntimeConfig } from '../../config/config-schema';
import { mergeConstraints } from '../../constraints/validate-constraints';
import { gainValues, type ReasonerGainTable } from '../../costmodel/reasoner-gains';
import { type EstimatorExplain, estimatorExplain, LearnedCostModel } from '../../costmodel/learned-cost-model';
import type { ObservationLearner } from '../../costmodel/observation-learner';
import type { BanditLearner } from '../../learning/bandit-learner';
import { type PlanArm, topArms } from '../../learning/plan-arms';
import { planGoal, type PlanGoalResult } from '../../planner/plan-pipeline';
import type { Constraints, Intent, PlanScoreWeights, ScoredCandidate } from '../../types';
import type { RuntimePlugins } from '../runtime-plugins';
import type { PlanKey } from './plan-key-stage';
import type { PolicyOutcome } from './policy-stage';

export interface PlanningInput {
  readonly intent: Intent;
  readonly outcome: PolicyOutcome;
  readonly planKey: PlanKey;
  /** learned-v2's state: the optimizer plans with its corrections (absent: the heuristic alone). */
  readonly learned?: ObservationLearner;
}

export interface PlanningOutcome {
  readonly context: PlanningContext;
  readonly constraints: Constraints;
  readonly weights: PlanScoreWeights;
  readonly planned: PlanGoalResult;
  /** Which estimator's numbers the chosen plan was ranked on, and over how many observations. */
  readonly estimator: (candidate: ScoredCandidate) => EstimatorExplain;
  /** The reasoner gains the cost model planned with, with what decided each (EXPLAIN's reasonerGain). */
  readonly reasonerGains: ReasonerGainTable;
}

export function planningContextOf(plugins: RuntimePlugins, config: RuntimeConfig, outcome: PolicyOutcome, planKey: PlanKey): PlanningContext {
  return {
    retrievers: planKey.retrievers,
    tiers: planKey.tiers,
    sources: outcome.allowed,
    policy: outcome.policy,
    reasoners: plugins.reasoners.map((reasoner) => ({ strategy: reasoner.strategy, expectedModelCalls: reasoner.expectedModelCalls, ...(reasoner.requiresToolCalls ? { requiresToolCalls: true } : {}), ...(reasoner.needsInstructions ? { needsInstructions: true } : {}), ...(reasoner.mixture ? { mixture: reasoner.mixture } : {}) })),
    compressions: plugins.compressions.map((compression) => ({ method: compression.method, expectedRatio: compression.expectedRatio, expectedLoss: compression.expectedLoss })),
    verifiers: plugins.verifiers.map((verifier) => ({ method: verifier.method, confidencePrior: verifier.confidencePrior })),
    ...(planKey.modelCacheTallies ? { modelCacheTallies: planKey.modelCacheTallies } : {}),
    reasonerGains: gainValues(planKey.reasonerGains),
    retrieval: { topK: config.retrieval.top_k, finalK: config.retrieval.final_k, contextTokenBudget: config.retrieval.context_token_budget },
  };
}

/** The config's budgets with the request's constraints over them. */
export function constraintsOf(config: RuntimeConfig, outcome: PolicyOutcome): Constraints {
  return mergeConstraints(stripUndefined(config.budgets), stripUndefined(outcome.constraints));
}

export function planningStage(plugins: RuntimePlugins, config: RuntimeConfig, input: PlanningInput): PlanningOutcome {
  const { intent, outcome, planKey } = input;
  const context = planningContextOf(plugins, config, outcome, planKey);
  const constraints = constraintsOf(config, outcome);
  const costModel: CostModelPlugin = input.learned ? new LearnedCostModel(plugins.costModel, input.learned) : plugins.costModel;
  const planned = planGoal({ intent, context, constraints, weights: planKey.weights, analyzer: plugins.intentAnalyzer, generator: plugins.candidateGenerator, costModel, optimizer: plugins.optimizer });
  const estimator = (candidate: ScoredCandidate) => estimatorExplain(plugins.costModel, candidate.candidate, intent, context, input.learned);
  return { context, constraints, weights: planKey.weights, planned, estimator, reasonerGains: planKey.reasonerGains };
}

export type BanditDecision = NonNullable<ReturnType<BanditLearner['decide']>>;

export interface LearningOutcome {
  readonly chosen: ScoredCandidate;
  readonly decision?: BanditDecision;
  /** The feasible arms the bandit chose among, the default plan first: the plan cache keeps them for its hits. */
  readonly arms?: readonly PlanArm[];
}

export async function learningStage(learner: BanditLearner | undefined, planned: PlanGoalResult, intent: Intent): Promise<LearningOutcome> {
  if (!learner?.settings.enabled) return { chosen: planned.chosen };
  await learner.ready();
  const arms = topArms(planned.candidates, learner.settings.topKArms);
  const decision = learner.decideAmong(arms, intent);
  return { chosen: decision?.candidate ?? planned.chosen, arms, ...(decision ? { decision } : {}) };
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined)) as Partial<T>;
}
