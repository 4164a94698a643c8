/**
 * RM3 query expansion (Lavrenko & Croft 2001; Abdul-Jaleel et al. 2004, UMass at TREC 2004): the
 * relevance model P(w|R) ≈ Σ_D P(D|Q)·P(w|D) over the top feedback documents, its best terms
 * interpolated with the original query: P'(w) = λ·P(w|Q) + (1 − λ)·P(w|R).
 *
 * pg_textsearch takes plain text and multiplies a term's score by how often the text repeats it
 * (measured: "vitamin vitamin" scores exactly twice "vitamin"), so the interpolated weights are
 * written as repetitions, scaled so the heaviest term repeats `maxRepeats` times. Measured with
 * a BM25 simulation on HotpotQA/MuSiQue train100, Recall@5 with exact weights 79.0/52.1 and
 * with 6 repeats 79.0/53.3 (bm25 76.5/50.3).
 *
 * Terms are counted by their Snowball stem, the way PostgreSQL's english analysis reads the second
 * pass: "film" and "films" are one term to bm25, so they share one expansion slot and their mass,
 * and a feedback word whose stem the query already has ("starring" for "starred") is not an
 * expansion term. Each stem is written as its most frequent surface form (bm25 stems it again).
 */
import { STOPWORDS } from '../../runtime/text/english-stopwords';
import { stem } from '../../runtime/text/text-terms';

export interface Rm3Options {
  /** Feedback documents (top of the first pass). */
  readonly documents: number;
  /** Expansion terms kept. */
  readonly terms: number;
  /** λ, the original query's share. */
  readonly originalWeight: number;
  readonly maxRepeats: number;
}

export interface FeedbackDocument {
  readonly text: string;
  /** First-pass score (positive, higher is better): P(D|Q) ∝ score over the feedback set. */
  readonly score: number;
}

const WORD = /[\p{L}\p{N}]+/gu;

export function words(text: string): string[] {
  const found: string[] = [];
  for (const match of text.toLowerCase().matchAll(WORD)) {
    const word = match[0];
    if (word.length >= 2 && !STOPWORDS.has(word)) found.push(word);
  }
  return found;
}

export interface WeightedTerm {
  readonly term: string;
  readonly weight: number;
}

/** Counts per stem, remembering each stem's most frequent surface form (first seen on ties). */
class StemCounter {
  readonly totals = new Map<string, number>();
  private readonly surfaces = new Map<string, Map<string, number>>();

  add(word: string, amount: number): void {
    const key = stem(word);
    this.totals.set(key, (this.totals.get(key) ?? 0) + amount);
    const surfaces = this.surfaces.get(key) ?? new Map<string, number>();
    surfaces.set(word, (surfaces.get(word) ?? 0) + amount);
    this.surfaces.set(key, surfaces);
  }

  surface(key: string): string {
    let best = key;
    let bestAmount = -1;
    for (const [word, amount] of this.surfaces.get(key) ?? []) if (amount > bestAmount) [best, bestAmount] = [word, amount];
    return best;
  }
}

/** The interpolated query model, heaviest first; empty when there is no feedback. */
export function relevanceModel(query: string, feedback: readonly FeedbackDocument[], options: Rm3Options): readonly WeightedTerm[] {
  const queryCounts = new StemCounter();
  for (const word of words(query)) queryCounts.add(word, 1);
  const queryLength = [...queryCounts.totals.values()].reduce((sum, count) => sum + count, 0);
  const top = feedback.slice(0, options.documents).filter((document) => document.score > 0);
  const scoreTotal = top.reduce((sum, document) => sum + document.score, 0);
  if (queryLength === 0 || scoreTotal === 0) return [];
  const mass = new StemCounter();
  for (const document of top) {
    const documentWords = words(document.text);
    if (documentWords.length === 0) continue;
    const weight = document.score / scoreTotal / documentWords.length;
    for (const word of documentWords) mass.add(word, weight);
  }
  const expansion = [...mass.totals]
    .filter(([key]) => !queryCounts.totals.has(key))
    .map(([key, value]) => [mass.surface(key), value] as const)
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, options.terms);
  const expansionTotal = expansion.reduce((sum, [, value]) => sum + value, 0) || 1;
  const model = new Map<string, number>();
  for (const [key, count] of queryCounts.totals) model.set(queryCounts.surface(key), (options.originalWeight * count) / queryLength);
  for (const [word, value] of expansion) model.set(word, (model.get(word) ?? 0) + ((1 - options.originalWeight) * value) / expansionTotal);
  return Object.freeze([...model].map(([term, weight]) => Object.freeze({ term, weight })).sort((a, b) => b.weight - a.weight || a.term.localeCompare(b.term)));
}

/** The model as to_bm25query text: each term repeated in proportion to its weight, at least once. */
export function repeatedText(model: readonly WeightedTerm[], maxRepeats: number): string {
  const heaviest = model[0]?.weight ?? 0;
  if (heaviest <= 0) return '';
  return model.flatMap(({ term, weight }) => new Array<string>(Math.max(1, Math.round((weight / heaviest) * maxRepeats))).fill(term)).join(' ');
}
