/**
 * PlanScore's cache term from measured hit rates (issue 15 point 6): the model-context cache counts
 * lookups and hits per (model, intent class), and the estimate is that rate shrunk toward the
 * heuristic prior while the counts are few — a Beta prior worth CACHE_PRIOR_LOOKUPS lookups, first
 * at the model's level (all intents), then at the (model, intent) level on top of it:
 *
 *   modelRate  = (hits_m + prior · N0) / (lookups_m + N0)
 *   rate       = (hits_mi + modelRate · N0) / (lookups_mi + N0)        N0 = CACHE_PRIOR_LOOKUPS
 *
 * So a model never cached keeps the prior exactly, and twenty lookups of evidence move it halfway.
 */
import type { ModelCacheTally } from '../contracts/model-cache';
import { CACHE_PRIOR_LOOKUPS, clampProbability } from './units';

interface Counts { lookups: number; hits: number }

export interface MeasuredCacheRates {
  /** The cache term for one tier's model on one intent class, given the heuristic's prior. */
  rate(prior: number, modelId: string, intentClass: string): number;
}

const shrink = (counts: Counts | undefined, toward: number): number =>
  counts && counts.lookups > 0 ? clampProbability((counts.hits + toward * CACHE_PRIOR_LOOKUPS) / (counts.lookups + CACHE_PRIOR_LOOKUPS)) : toward;

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
  const rates: MeasuredCacheRates = Object.freeze({
    rate: (prior: number, modelId: string, intentClass: string) => shrink(byIntent.get(`${modelId}\u0000${intentClass}`), shrink(byModel.get(modelId), prior)),
  });
  indexed.set(tallies, rates);
  return rates;
}

const NO_MEASUREMENTS: MeasuredCacheRates = Object.freeze({ rate: (prior: number) => prior });
