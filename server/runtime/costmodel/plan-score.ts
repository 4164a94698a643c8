import { invalidInput } from '../errors';
import type { CandidateEstimates, PlanScore, PlanScoreWeights, ScoreComponents } from '../types';
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

export function scoreComponents(estimates: CandidateEstimates): ScoreComponents {
  const cost = estimates.costUsd.value > 0 ? estimates.costUsd.value : 0;
  const latency = estimates.latencySeconds.value > 0 ? estimates.latencySeconds.value : 0;
  return {
    acc: clampProbability(estimates.accuracy.value),
    cost: cost / (cost + COST_REFERENCE_USD),
    lat: latency / (latency + LATENCY_REFERENCE_SECONDS),
    risk: clampProbability(estimates.risk.value),
    hall: clampProbability(estimates.hallucination.value),
    loss: clampProbability(estimates.contextLoss.value),
    cache: clampProbability(estimates.cacheHit.value),
    vrf: clampProbability(estimates.verificationConfidence.value),
  };
}

export function scorePlan(estimates: CandidateEstimates, weights: PlanScoreWeights): PlanScore {
  const components = scoreComponents(estimates);
  const weightSum = weights.acc + weights.cost + weights.lat + weights.risk + weights.hall + weights.loss + weights.cache + weights.vrf;
  const raw =
    weights.acc * components.acc +
    weights.cache * components.cache +
    weights.vrf * components.vrf -
    weights.cost * components.cost -
    weights.lat * components.lat -
    weights.risk * components.risk -
    weights.hall * components.hall -
    weights.loss * components.loss;
  return { total: weightSum > 0 ? raw / weightSum : 0, components, weights };
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
