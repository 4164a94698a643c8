/**
 * Stages `candidates`, `cost_model` and `optimizer` (planGoal, pure and in memory) and `learning`:
 * the online bandit (server/runtime/learning) may pick another of the top feasible plan shapes.
 */
import type { PlanningContext } from '../../contracts/candidate-generator';
import type { RuntimeConfig } from '../../config/config-schema';
import { mergeConstraints } from '../../constraints/validate-constraints';
import type { BanditLearner } from '../../learning/bandit-learner';
import { planGoal, type PlanGoalResult } from '../../planner/plan-pipeline';
import type { Constraints, Intent, PlanScoreWeights, ScoredCandidate } from '../../types';
import type { RuntimePlugins } from '../runtime-plugins';
import type { PlanKey } from './plan-key-stage';
import type { PolicyOutcome } from './policy-stage';

export interface PlanningInput {
  readonly intent: Intent;
  readonly outcome: PolicyOutcome;
  readonly planKey: PlanKey;
}

export interface PlanningOutcome {
  readonly context: PlanningContext;
  readonly constraints: Constraints;
  readonly weights: PlanScoreWeights;
  readonly planned: PlanGoalResult;
}

export function planningStage(plugins: RuntimePlugins, config: RuntimeConfig, input: PlanningInput): PlanningOutcome {
  const { intent, outcome, planKey } = input;
  const context: PlanningContext = {
    retrievers: planKey.retrievers,
    tiers: planKey.tiers,
    sources: outcome.allowed,
    policy: outcome.policy,
    reasoners: plugins.reasoners.map((reasoner) => ({ strategy: reasoner.strategy, expectedModelCalls: reasoner.expectedModelCalls })),
    compressions: plugins.compressions.map((compression) => ({ method: compression.method, expectedRatio: compression.expectedRatio, expectedLoss: compression.expectedLoss })),
    verifiers: plugins.verifiers.map((verifier) => ({ method: verifier.method, confidencePrior: verifier.confidencePrior })),
    ...(planKey.modelCacheTallies ? { modelCacheTallies: planKey.modelCacheTallies } : {}),
    retrieval: { topK: config.retrieval.top_k, finalK: config.retrieval.final_k, contextTokenBudget: config.retrieval.context_token_budget },
  };
  const constraints = mergeConstraints(stripUndefined(config.budgets), stripUndefined(outcome.constraints));
  const planned = planGoal({ intent, context, constraints, weights: planKey.weights, analyzer: plugins.intentAnalyzer, generator: plugins.candidateGenerator, costModel: plugins.costModel, optimizer: plugins.optimizer });
  return { context, constraints, weights: planKey.weights, planned };
}

export type BanditDecision = NonNullable<ReturnType<BanditLearner['decide']>>;

export interface LearningOutcome {
  readonly chosen: ScoredCandidate;
  readonly decision?: BanditDecision;
}

export async function learningStage(learner: BanditLearner | undefined, planned: PlanGoalResult, intent: Intent): Promise<LearningOutcome> {
  if (!learner?.settings.enabled) return { chosen: planned.chosen };
  await learner.ready();
  const decision = learner.decide(planned.candidates, intent);
  return { chosen: decision?.candidate ?? planned.chosen, ...(decision ? { decision } : {}) };
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined)) as Partial<T>;
}
