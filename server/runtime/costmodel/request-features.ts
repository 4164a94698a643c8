/**
 * What a request looks like to the learned estimator's regression (issue 16.3): within one intent
 * class and plan shape, a long goal over large sources costs more than a short one over a small
 * source, and group means alone cannot say so. Features are log-scaled because tokens, cost and
 * latency are learned as log ratios (units.ts, "LEARNED ESTIMATOR").
 */
import type { PlanningContext } from '../contracts/candidate-generator';
import type { CandidatePlan, Intent } from '../types';
import { digestOf } from './planning-digest';

/** Persisted with each observation (cost_observations.goal_tokens, source_tokens, top_k). */
export interface RequestFeatures {
  readonly goalTokens: number;
  /** Tokens held by the sources the plan's scope reads (chunks × mean chunk size). */
  readonly sourceTokens: number;
  readonly topK: number;
}

export const FEATURE_COUNT = 3;

export function requestFeatures(candidate: Pick<CandidatePlan, 'sourceKinds' | 'topK'>, intent: Intent, context: PlanningContext): RequestFeatures {
  const digest = digestOf(context);
  const scope = digest.scope(candidate.sourceKinds);
  // No source statistics at all (the digest's infinite chunk count): nothing registered to read.
  const sourceTokens = Number.isFinite(scope.chunks) ? Math.round(scope.chunks * scope.meanChunkTokens) : 0;
  return { goalTokens: digest.forIntent(intent).goalTokens, sourceTokens, topK: candidate.topK };
}

/** ln(1 + x) per feature: a doubling of any one moves the estimate by a constant factor. */
export function featureVector(features: RequestFeatures): readonly number[] {
  return [Math.log1p(Math.max(0, features.goalTokens)), Math.log1p(Math.max(0, features.sourceTokens)), Math.log1p(Math.max(0, features.topK))];
}
