/**
 * PlanScore's cache term from measured hit rates (issue 15 point 6): the model-context cache counts
 * lookups and hits per (model, intent class), and the estimate is that rate shrunk toward the
 * heuristic prior while the counts are few — a Beta prior worth CACHE_PRIOR_LOOKUPS lookups, first
 * at the model's level (all intents), then at the (model, intent) level on top of it:
 *
 *   modelRate  = (H + prior · N0) / (L + N0)                    H, L: the model's hits and lookups
 *   rate       = (h + modelRate · N0) / (l + N0)                h, l: those of (model, intent)
 *              = offset + slope · prior,  offset = (h + N0·H/(L + N0)) / (l + N0),  slope = N0² / ((l + N0)(L + N0))
 *
 * A model never cached keeps the prior exactly (offset 0, slope 1); twenty lookups move it halfway.
 * Offset and slope are rounded to CACHE_RATE_STEP, and the plan-cache key holds the rounded pair of
 * every tier's model (fingerprint below): the planner stays a function of its key, so a cached plan
 * is what a cold plan would choose, and a lookup or two does not re-plan every goal.
 */
import type { ModelCacheTally } from '../contracts/model-cache';
import { sha256Hex } from '../ir/plan-hash';
import { canonicalJson } from '../ir/serialize-graph';
import { CACHE_PRIOR_LOOKUPS, CACHE_RATE_STEP, clampProbability } from './units';

interface Counts { lookups: number; hits: number }

/** rate = offset + slope · prior, both rounded to CACHE_RATE_STEP. */
export interface CacheRateLine {
  readonly offset: number;
  readonly slope: number;
}

export interface MeasuredCacheRates {
  /** The cache term for one tier's model on one intent class, given the heuristic's prior. */
  rate(prior: number, modelId: string, intentClass: string): number;
  /** What rate() reads for these models and this intent class: part of the plan-cache key. */
  fingerprint(modelIds: readonly string[], intentClass: string): string;
}

const N0 = CACHE_PRIOR_LOOKUPS;
const round = (value: number) => Math.round(value / CACHE_RATE_STEP) * CACHE_RATE_STEP;
const UNMEASURED: CacheRateLine = Object.freeze({ offset: 0, slope: 1 });

function lineOf(model: Counts | undefined, intent: Counts | undefined): CacheRateLine {
  const modelLookups = model?.lookups ?? 0;
  const lookups = intent?.lookups ?? 0;
  if (modelLookups === 0 && lookups === 0) return UNMEASURED;
  const modelOffset = (model?.hits ?? 0) / (modelLookups + N0);
  const offset = ((intent?.hits ?? 0) + N0 * modelOffset) / (lookups + N0);
  const slope = (N0 * N0) / ((lookups + N0) * (modelLookups + N0));
  return Object.freeze({ offset: round(offset), slope: round(slope) });
}

const indexed = new WeakMap<readonly ModelCacheTally[], MeasuredCacheRates>();

/** Indexes the tallies once per list (the cost model asks for every candidate). */
export function measuredCacheRates(tallies: readonly ModelCacheTally[] | undefined): MeasuredCacheRates {
  if (!tallies || tallies.length === 0) return NO_MEASUREMENTS;
  const known = indexed.get(tallies);
  if (known) return known;
  const byModel = new Map<string, Counts>();
  const byIntent = new Map<string, Counts>();
  for (const tally of tallies) {
    const model = byModel.get(tally.modelId) ?? { lookups: 0, hits: 0 };
    model.lookups += tally.lookups;
    model.hits += tally.hits;
    byModel.set(tally.modelId, model);
    byIntent.set(`${tally.modelId}\u0000${tally.intentClass}`, { lookups: tally.lookups, hits: tally.hits });
  }
  const lines = new Map<string, CacheRateLine>();
  const line = (modelId: string, intentClass: string): CacheRateLine => {
    const id = `${modelId}\u0000${intentClass}`;
    let known = lines.get(id);
    if (!known) lines.set(id, (known = lineOf(byModel.get(modelId), byIntent.get(id))));
    return known;
  };
  const rates: MeasuredCacheRates = Object.freeze({
    rate: (prior: number, modelId: string, intentClass: string) => {
      const { offset, slope } = line(modelId, intentClass);
      return offset === 0 && slope === 1 ? prior : clampProbability(offset + slope * prior);
    },
    fingerprint: (modelIds: readonly string[], intentClass: string) => fingerprintOf(line, modelIds, intentClass),
  });
  indexed.set(tallies, rates);
  return rates;
}

function fingerprintOf(line: (modelId: string, intentClass: string) => CacheRateLine, modelIds: readonly string[], intentClass: string): string {
  return sha256Hex(canonicalJson([...new Set(modelIds)].sort().map((modelId) => [modelId, line(modelId, intentClass)])));
}

const NO_MEASUREMENTS: MeasuredCacheRates = Object.freeze({
  rate: (prior: number) => prior,
  fingerprint: (modelIds: readonly string[], intentClass: string) => fingerprintOf(() => UNMEASURED, modelIds, intentClass),
});
