/**
 * Stage `cache_arm`: on a plan-cache hit the bandit chooses again among the feasible arms the
 * entry kept (issue 16.2: the cache and learning work together), so a hit is still a decision the
 * run teaches. When it keeps the cached arm the cached plan is served as is; when it picks another
 * arm, that arm's candidate (scored when the entry was made) is built into a graph here: no
 * enumeration or cost model runs, only the graph builder.
 */
import type { RuntimeConfig } from '../../config/config-schema';
import { estimatorExplain } from '../../costmodel/learned-cost-model';
import type { ObservationLearner } from '../../costmodel/observation-learner';
import type { ExplainResult } from '../../explain/explain-types';
import { planHash } from '../../ir/plan-hash';
import type { BanditLearner } from '../../learning/bandit-learner';
import type { Intent } from '../../types';
import { explainCandidate } from '../explain-builder';
import type { RuntimePlugins } from '../runtime-plugins';
import type { ServedPlan } from './cache-hit-stage';
import { graphStage } from './graph-stage';
import type { PlanKey } from './plan-key-stage';
import { constraintsOf, planningContextOf } from './planning-stage';
import { reasonerGainExplain } from '../../costmodel/reasoner-gains';
import type { PolicyOutcome } from './policy-stage';

export interface CacheArmInput {
  readonly intent: Intent;
  readonly outcome: PolicyOutcome;
  readonly planKey: PlanKey;
  readonly sourceFingerprint: string;
  readonly plannerVersion: string;
  readonly served: ServedPlan;
  readonly learned?: ObservationLearner;
  /** Whether the request asks for an output_schema: the other arm's graph gets the same checks. */
  readonly outputSchema: boolean;
}

export async function cacheArmStage(plugins: RuntimePlugins, config: RuntimeConfig, learner: BanditLearner | undefined, input: CacheArmInput): Promise<ServedPlan> {
  const { served, intent, outcome } = input;
  const arms = served.explain.learningArms;
  if (!learner?.settings.enabled || !arms || arms.length === 0) return withoutDecision(served);
  await learner.ready();
  const decision = learner.decideAmong(arms, intent);
  if (!decision) return withoutDecision(served);
  const chosen = decision.candidate;
  if (chosen.candidate.id === served.explain.chosen.id) return { ...served, explain: { ...served.explain, learning: decision.explain } };

  const context = planningContextOf(plugins, config, outcome, input.planKey);
  const constraints = constraintsOf(config, outcome);
  const requireCitations = outcome.constraints.require_citations ?? true;
  const built = graphStage(plugins, config, { chosen, allowed: outcome.allowed, policy: outcome.policy, context, constraints, requireCitations, intent, requireVerification: outcome.constraints.require_verification === true, outputSchema: input.outputSchema });
  const cached = served.explain;
  const explain: ExplainResult = {
    ...cached,
    planHash: planHash({ intent, choice: chosen.candidate, sourceFingerprint: input.sourceFingerprint, policyFingerprint: outcome.policy.fingerprint, constraints, plannerVersion: input.plannerVersion }),
    candidates: [explainCandidate(chosen, true), ...cached.candidates.filter((candidate) => candidate.id !== chosen.candidate.id).map((candidate) => ({ ...candidate, chosen: false }))],
    chosen: explainCandidate(chosen, true),
    reasonerGain: reasonerGainExplain(input.planKey.reasonerGains, chosen.candidate.reasoning, intent.primary),
    selectedSources: built.scopedSources.map((source) => source.name),
    rejectedSources: [...outcome.rejected, ...built.outOfScope],
    estimates: { costUsd: chosen.estimates.costUsd, accuracy: chosen.estimates.accuracy, latencySeconds: chosen.estimates.latencySeconds, tokens: chosen.estimates.tokens },
    tokenBudget: { budget: built.tokenBudget, finalK: config.retrieval.final_k, estimatedContextTokens: Math.round(Math.min(chosen.estimates.tokens.value, config.retrieval.final_k * built.meanChunkTokens)) },
    verificationPlan: { ...cached.verificationPlan, method: chosen.candidate.verification, approval: chosen.candidate.approval },
    graph: built.graph,
    learning: decision.explain,
    estimator: estimatorExplain(plugins.costModel, chosen.candidate, intent, context, input.learned),
  };
  return { graph: built.graph, explain };
}

/** A cached plan carries the decision made when it was planned: a hit served without the bandit must not repeat it. */
function withoutDecision(served: ServedPlan): ServedPlan {
  if (!served.explain.learning) return served;
  const { learning: _learning, ...explain } = served.explain;
  return { ...served, explain };
}
