import { invalidInput } from '../errors';
import type { CandidateEstimates, PlanScore, PlanScoreWeights, ScoreComponents } from '../types';
import { FIELD } from './estimate-fields';
import { PlanScoreRecord, ScoreTerms } from './plan-records';
import { COST_REFERENCE_USD, LATENCY_REFERENCE_SECONDS, clampProbability } from './units';

/**
 * PlanScore: a normalised weighted utility (reference architecture §6).
 *
 * Each term is first mapped to [0,1]:
 *   benefits   acc = accuracy, cache = cache-hit probability, vrf = verification confidence
 *   penalties  risk, hall, loss = their probabilities
 *              cost = c / (c + COST_REFERENCE_USD)          ($0 → 0, $0.01 → 0.5, $0.10 → 0.91)
 *              lat  = s / (s + LATENCY_REFERENCE_SECONDS)   (0 s → 0, 10 s → 0.5, 90 s → 0.9)
 * The saturating ratio is used rather than 1 − min(1, c/ref) because plan costs span four
 * orders of magnitude ($0 local to ~$1 premium mixtures): a clipped linear map would call
 * every plan above the reference equally bad, while c/(c+ref) keeps ranking them and is
 * strictly increasing, which the optimizer's dominance pruning relies on.
 *
 * total = (Σ w·benefit − Σ w·penalty) / Σ w, so totals lie in [−1, 1] and stay comparable
 * when a request overrides one weight.
 */

export const WEIGHT_NAMES: readonly (keyof PlanScoreWeights)[] = ['acc', 'cost', 'lat', 'risk', 'hall', 'loss', 'cache', 'vrf'];

/** The cost term: a saturating ratio of the reference (a negative estimate counts as free). */
const costTerm = (costUsd: number): number => {
  const cost = costUsd > 0 ? costUsd : 0;
  return cost / (cost + COST_REFERENCE_USD);
};

const latencyTerm = (seconds: number): number => {
  const latency = seconds > 0 ? seconds : 0;
  return latency / (latency + LATENCY_REFERENCE_SECONDS);
};

export function scoreComponents(estimates: CandidateEstimates): ScoreComponents {
  return new ScoreTerms(
    clampProbability(estimates.accuracy.value),
    costTerm(estimates.costUsd.value),
    latencyTerm(estimates.latencySeconds.value),
    clampProbability(estimates.risk.value),
    clampProbability(estimates.hallucination.value),
    clampProbability(estimates.contextLoss.value),
    clampProbability(estimates.cacheHit.value),
    clampProbability(estimates.verificationConfidence.value),
  );
}

/** total from the eight terms: the one expression scorePlan and scoreTotalOf share, so both give the same number. */
function weightedTotal(acc: number, cost: number, lat: number, risk: number, hall: number, loss: number, cache: number, vrf: number, weights: PlanScoreWeights): number {
  const weightSum = weights.acc + weights.cost + weights.lat + weights.risk + weights.hall + weights.loss + weights.cache + weights.vrf;
  const raw =
    weights.acc * acc +
    weights.cache * cache +
    weights.vrf * vrf -
    weights.cost * cost -
    weights.lat * lat -
    weights.risk * risk -
    weights.hall * hall -
    weights.loss * loss;
  return weightSum > 0 ? raw / weightSum : 0;
}

export function scorePlan(estimates: CandidateEstimates, weights: PlanScoreWeights): PlanScore {
  const c = scoreComponents(estimates);
  return new PlanScoreRecord(weightedTotal(c.acc, c.cost, c.lat, c.risk, c.hall, c.loss, c.cache, c.vrf, weights), c, weights);
}

/** scorePlan's total from a row of point values (estimate-fields.ts order), without building the components. */
export function scoreTotalOf(values: Float64Array, offset: number, weights: PlanScoreWeights): number {
  return weightedTotal(
    clampProbability(values[offset + FIELD.accuracy]),
    costTerm(values[offset + FIELD.costUsd]),
    latencyTerm(values[offset + FIELD.latencySeconds]),
    clampProbability(values[offset + FIELD.risk]),
    clampProbability(values[offset + FIELD.hallucination]),
    clampProbability(values[offset + FIELD.contextLoss]),
    clampProbability(values[offset + FIELD.cacheHit]),
    clampProbability(values[offset + FIELD.verificationConfidence]),
    weights,
  );
}

function parseWeight(name: string, raw: unknown): number {
  const value = typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : raw;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
    throw invalidInput(`weights.${name}`, `expected a non-negative number, got ${typeof raw === 'string' ? JSON.stringify(raw) : String(raw)}`);
  }
  return value;
}

/**
 * Config weights with per-request overrides applied. Overrides come from callers, so each
 * is validated (unknown name, negative, NaN, Infinity, non-numeric → INVALID_INPUT naming it).
 */
export function resolveWeights(configWeights: PlanScoreWeights, requestOverrides?: unknown): PlanScoreWeights {
  const resolved: Record<string, number> = {};
  for (const name of WEIGHT_NAMES) resolved[name] = parseWeight(name, configWeights[name]);
  if (requestOverrides !== undefined && requestOverrides !== null) {
    if (typeof requestOverrides !== 'object' || Array.isArray(requestOverrides)) {
      throw invalidInput('weights', `expected an object of weights, got ${Array.isArray(requestOverrides) ? 'an array' : typeof requestOverrides}`);
    }
    for (const [name, raw] of Object.entries(requestOverrides)) {
      if (!(WEIGHT_NAMES as readonly string[]).includes(name)) {
        throw invalidInput(`weights.${name}`, `unknown weight; expected one of ${WEIGHT_NAMES.join(', ')}`);
      }
      if (raw === undefined) continue;
      resolved[name] = parseWeight(name, raw);
    }
  }
  if (WEIGHT_NAMES.every((name) => resolved[name] === 0)) throw invalidInput('weights', 'at least one weight must be positive');
  return Object.freeze(resolved as unknown as PlanScoreWeights);
}
