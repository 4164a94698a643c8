/**
 * Stage `key`: what the planner will read besides the intent and sources — weights, retriever and
 * tier capabilities — and the plan-cache key over all of it, so a hit is served only for the same
 * inputs a cold plan would read.
 */
import type { RetrieverCapabilities } from '../../contracts/retriever';
import type { PlanCacheKey } from '../../contracts/plan-cache';
import type { TierInfo } from '../../contracts/router';
import type { RuntimeConfig } from '../../config/config-schema';
import type { ModelCacheTally } from '../../contracts/model-cache';
import { measuredCacheRates } from '../../costmodel/cache-hit-rate';
import { resolveWeights } from '../../costmodel/plan-score';
import { buildPlanCacheKey } from '../../plancache/plan-cache-key';
import { gainValues, type ReasonerGainTable } from '../../costmodel/reasoner-gains';
import type { Intent, PlanScoreWeights, RunRequest } from '../../types';
import type { RuntimePlugins } from '../runtime-plugins';
import { capabilityFingerprint as capabilityFingerprintOf } from './capability-fingerprint';
import type { PolicyOutcome } from './policy-stage';

export interface PlanKey {
  readonly key: PlanCacheKey;
  readonly weights: PlanScoreWeights;
  readonly retrievers: readonly RetrieverCapabilities[];
  readonly tiers: readonly TierInfo[];
  /** The model-context cache's tallies the planner reads (absent when the cache is off), taken once so the key and the plan agree. */
  readonly modelCacheTallies?: readonly ModelCacheTally[];
  /** Reasoner gains resolved from the fitted or configured table and observed runs, taken once so the key and the plan agree. */
  readonly reasonerGains: ReasonerGainTable;
}

export interface PlanKeyInput {
  readonly request: RunRequest;
  readonly intent: Intent;
  readonly outcome: PolicyOutcome;
  readonly sourceFingerprint: string;
  readonly plannerVersion: string;
  readonly reasonerGains: ReasonerGainTable;
}

export function planKeyStage(plugins: RuntimePlugins, config: RuntimeConfig, input: PlanKeyInput): PlanKey {
  const { request, intent, outcome } = input;
  const weights = resolveWeights(config.costmodel.weights, request.weights);
  const retrievers = plugins.retrievers.map((retriever) => retriever.capabilities());
  const tiers = plugins.router.tiers();
  // What the plugins can do is part of the envelope: a tier gaining its key, or an extension
  // appearing, must re-plan rather than serve a plan made without it.
  // The verification settings and whether an output_schema is asked for change the checks and retries the graph holds.
  // So are the measured model-cache rates the cache term reads (rounded: cache-hit-rate.ts), and measured
  // reasoner gains (reasoner-gains.ts: fitted or configured, moved by observed runs).
  const modelCacheTallies = plugins.modelContextCache?.tallies();
  const modelCacheRates = modelCacheTallies ? measuredCacheRates(modelCacheTallies).fingerprint(tiers.map((tier) => tier.capabilities.modelId), intent.primary) : undefined;
  const capabilityFingerprint = capabilityFingerprintOf(config, { retrievers, tiers, outputSchema: request.output_schema !== undefined, reasonerGains: gainValues(input.reasonerGains), ...(modelCacheRates !== undefined ? { modelCacheRates } : {}) });
  const key = buildPlanCacheKey({
    intent,
    principal: request.principal!,
    policy: outcome.policy,
    allowedSources: outcome.allowed.map((source) => source.name),
    sourceFingerprint: input.sourceFingerprint,
    envelope: { constraints: outcome.constraints, weights, budgets: config.budgets },
    plannerVersion: input.plannerVersion,
    capabilityFingerprint,
  });
  return { key, weights, retrievers, tiers, reasonerGains: input.reasonerGains, ...(modelCacheTallies ? { modelCacheTallies } : {}) };
}
