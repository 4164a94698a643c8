/**
 * simulate(): "what will it cost me?" — the chosen plan's estimates, with intervals replaced by
 * observed residual intervals once the intent class has enough samples (honestly wide before).
 */
import type { FieldStatistics } from '../costmodel/cost-estimator';
import type { SimulateResult } from '../explain/explain-types';
import type { Estimate, EstimatedField } from '../types';
import type { PlannedRequest } from './plan-request';

/** Fewer observations than this and the residual quantiles are noise; keep the prior interval. */
export const MIN_SAMPLES_FOR_EMPIRICAL_INTERVAL = 5;

function calibrated(prior: Estimate, statistics: FieldStatistics | undefined): Estimate {
  if (!statistics || statistics.count < MIN_SAMPLES_FOR_EMPIRICAL_INTERVAL) return prior;
  const [low, high] = statistics.p90Interval;
  return { value: Math.max(0, prior.value + (low + high) / 2), low: Math.max(0, prior.value + low), high: Math.max(0, prior.value + high) };
}

export function simulatePlan(planned: PlannedRequest, statistics: readonly FieldStatistics[]): SimulateResult {
  const explain = planned.explain;
  const forField = (field: EstimatedField) => statistics.find((row) => row.field === field && row.intentClass === explain.intent.primary);
  const samples = Math.min(...(['costUsd', 'latencySeconds', 'tokens'] as const).map((field) => forField(field)?.count ?? 0));
  const models = explain.capabilities.tiers.filter((tier) => tier.name === explain.chosen.choice.modelTier).map((tier) => `${tier.name}: ${tier.capabilities.provider}/${tier.capabilities.modelId}`);
  return {
    goal: explain.goal,
    planHash: explain.planHash,
    expected: {
      costUsd: calibrated(explain.estimates.costUsd, forField('costUsd')),
      latencySeconds: calibrated(explain.estimates.latencySeconds, forField('latencySeconds')),
      tokens: calibrated(explain.estimates.tokens, forField('tokens')),
    },
    expectedConfidence: explain.chosen.estimates.verificationConfidence,
    expectedModels: models,
    expectedRetrieval: explain.chosen.choice.retrieval,
    basedOnSamples: samples,
  };
}
