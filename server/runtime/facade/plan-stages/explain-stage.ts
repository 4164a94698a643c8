/**
 * Stage `explain`: the plan's identity (plan hash) and its EXPLAIN — every candidate considered,
 * the chosen one with its estimates, sources kept and rejected, contradictions, token budget,
 * verification and plan-cache status. What the plan cache stores and a hit serves back.
 */
import type { PlanCacheKey, PlanCacheLookup } from '../../contracts/plan-cache';
import type { Contradiction } from '../../contracts/knowledge';
import type { RuntimeConfig } from '../../config/config-schema';
import type { ExplainResult } from '../../explain/explain-types';
import { planHash } from '../../ir/plan-hash';
import { registerRejectionParts } from '../../explain/rejection-parts';
import { reasonerGainExplain } from '../../costmodel/reasoner-gains';
import { askerDigestOf, nearMissFor } from '../../access/cached-intent-access';
import type { Intent, RejectedSource, RunRequest } from '../../types';
import { explainCandidate, rankForExplain } from '../explain-builder';
import type { RuntimePlugins } from '../runtime-plugins';
import type { GraphOutcome } from './graph-stage';
import type { LearningOutcome, PlanningOutcome } from './planning-stage';
import type { PolicyOutcome } from './policy-stage';

export interface ExplainInput {
  readonly request: RunRequest;
  readonly intent: Intent;
  readonly outcome: PolicyOutcome;
  readonly sourceFingerprint: string;
  readonly key: PlanCacheKey;
  readonly lookup?: PlanCacheLookup;
  readonly planning: PlanningOutcome;
  readonly learning: LearningOutcome;
  readonly built: GraphOutcome;
  readonly contradictions: { readonly concerning: readonly Contradiction[]; readonly other: readonly Contradiction[] };
  readonly plannerVersion: string;
  readonly planningMs: () => number;
}

export function explainStage(plugins: RuntimePlugins, config: RuntimeConfig, input: ExplainInput): ExplainResult {
  const { request, intent, outcome, planning, built, lookup } = input;
  const { chosen, decision, arms } = input.learning;
  const { policy } = outcome;
  const requireCitations = outcome.constraints.require_citations ?? true;
  const rejectedSources: RejectedSource[] = [...outcome.rejected, ...built.outOfScope];
  const explain: ExplainResult = {
    goal: request.goal,
    planHash: planHash({ intent, choice: chosen.candidate, sourceFingerprint: input.sourceFingerprint, policyFingerprint: policy.fingerprint, constraints: planning.constraints, plannerVersion: input.plannerVersion }),
    intent,
    constraints: planning.constraints,
    enumerated: planning.planned.enumerated,
    candidates: rankForExplain(planning.planned.candidates, chosen).map((candidate) => explainCandidate(candidate, candidate.candidate.id === chosen.candidate.id)),
    chosen: explainCandidate(chosen, true),
    // Listed when read: a plan that is executed or stored never builds its ~700 dominated records (rejection-parts.ts).
    get rejectedCandidates() {
      return planning.planned.rejected;
    },
    selectedSources: built.scopedSources.map((source) => source.name),
    rejectedSources,
    contradictions: input.contradictions.concerning,
    otherContradictions: input.contradictions.other,
    estimates: { costUsd: chosen.estimates.costUsd, accuracy: chosen.estimates.accuracy, latencySeconds: chosen.estimates.latencySeconds, tokens: chosen.estimates.tokens },
    tokenBudget: { budget: built.tokenBudget, finalK: config.retrieval.final_k, estimatedContextTokens: Math.round(Math.min(chosen.estimates.tokens.value, config.retrieval.final_k * built.meanChunkTokens)) },
    verificationPlan: { method: chosen.candidate.verification, requireCitations, approval: chosen.candidate.approval, reasons: policy.reasons },
    planCache: { status: config.plan_cache.enabled && plugins.planCache ? 'miss' : 'disabled', key: input.key, askerDigest: askerDigestOf(request.principal!.user), ...(lookup?.nearMiss ? { nearMiss: nearMissFor(intent.normalized, lookup.nearMiss) } : {}), ...(lookup?.error ? { error: lookup.error } : {}) },
    graph: built.graph,
    costModel: { version: plugins.costModel.version, weights: planning.weights },
    capabilities: { store: plugins.storeCapabilities, retrievers: planning.context.retrievers, tiers: planning.context.tiers },
    planningMs: input.planningMs(),
    ...(decision ? { learning: decision.explain } : {}),
    ...(arms && arms.length > 0 ? { learningArms: arms } : {}),
    estimator: planning.estimator(chosen),
    reasonerGain: reasonerGainExplain(planning.reasonerGains, chosen.candidate.reasoning, intent.primary),
  };
  registerRejectionParts(explain, planning.planned.rejections);
  return explain;
}
