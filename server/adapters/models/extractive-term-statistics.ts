/**
 * Term statistics over the sentences of one context, for the extractive reader: BM25's IDF, set
 * overlap, and agreement across sources (question-biased LexRank, Otterbacher, Erkan & Radev 2005).
 */
import type { Unit } from './extractive-units';

/** At most this many other sources corroborate one sentence. */
const MAX_CORROBORATING = 3;
/** Agreement with one sentence saturates at the IDF of this many terms that occur only twice in the context. */
const CORROBORATION_SATURATION = 2;

export function jaccard(left: ReadonlySet<string>, right: ReadonlySet<string>): number {
  let shared = 0;
  for (const term of left) if (right.has(term)) shared += 1;
  const union = left.size + right.size - shared;
  return union === 0 ? 0 : shared / union;
}

/** BM25's IDF of a term found in `found` of `total` units. */
const idfOf = (found: number, total: number) => Math.log(1 + (total - found + 0.5) / (found + 0.5));

export function documentFrequencies(sets: readonly ReadonlySet<string>[]): (term: string) => number {
  const frequency = new Map<string, number>();
  for (const set of sets) for (const term of set) frequency.set(term, (frequency.get(term) ?? 0) + 1);
  return (term) => idfOf(frequency.get(term) ?? 0, sets.length);
}

/**
 * Per unit, how many other sources hold a sentence agreeing with it on rare terms (0…MAX_CORROBORATING,
 * fractional). Question terms are left out: every retrieved item shares them. Items of the same source
 * are not independent (a log repeating itself), so they never corroborate each other.
 */
export function corroboration(units: readonly Unit[], queryTerms: ReadonlySet<string>): number[] {
  const idf = documentFrequencies(units.map((unit) => unit.evidence));
  const saturation = CORROBORATION_SATURATION * idfOf(2, units.length);
  return units.map((unit) => {
    const best = new Map<string, number>();
    for (const other of units) {
      if (other.source === unit.source) continue;
      let agreement = 0;
      for (const term of unit.evidence) if (!queryTerms.has(term) && other.evidence.has(term)) agreement += idf(term);
      best.set(other.source, Math.max(best.get(other.source) ?? 0, agreement));
    }
    const credits = [...best.values()].map((agreement) => Math.min(1, agreement / saturation)).sort((left, right) => right - left);
    return credits.slice(0, MAX_CORROBORATING).reduce((sum, credit) => sum + credit, 0);
  });
}
