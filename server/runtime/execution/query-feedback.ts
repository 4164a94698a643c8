/**
 * Pseudo-relevance feedback in the manner of RM3 (Lavrenko & Croft 2001; Abdul-Jaleel et al.
 * 2004): the terms that carry the most probability mass across the top documents of a first
 * retrieval, weighted by each document's normalised score, become an expansion of the query.
 * For incidents this is the "evidence → cause" hop: the failure evidence (OOMKilled, 256Mi,
 * memory limit) finds the change that caused it, which the goal's own words rarely name.
 */
import type { Hit } from '../types';
import { STOPWORDS } from '../text/english-stopwords';
import { tokenize } from '../text/text-terms';

/** Unstemmed: the expansion goes back into a search engine that stems on its own. */
const contentTerms = (text: string) => tokenize(text).filter((word) => !STOPWORDS.has(word));

/**
 * Tokens that are noise in expansions: dates and timestamps, hex ids, bare numbers, very short
 * words. Quantities with a unit ("256mi", "137") are kept out too unless they carry a unit letter.
 */
const NOISE = /^(\d{4}-\d{2}.*|\d+([.:-]\d+)*|[0-9a-f]{7,}|.{1,2})$/;

/**
 * @param hits the seed documents (best first)
 * @param background every document the first hop returned: a term frequent across it ("pod",
 *   "warning") says nothing about this failure, so it is down-weighted by an IDF over them —
 *   short operational chunks lack the long-document statistics RM3's P(w|D) relies on.
 */
export function feedbackTerms(goal: string, hits: readonly Hit[], documents: number, terms: number, background: readonly Hit[] = hits): string[] {
  const top = hits.slice(0, documents);
  if (top.length === 0) return [];
  const backgroundFrequency = new Map<string, number>();
  for (const hit of background) for (const word of new Set(contentTerms(`${hit.title} ${hit.text}`))) backgroundFrequency.set(word, (backgroundFrequency.get(word) ?? 0) + 1);
  const idf = (word: string) => Math.log((background.length + 1) / ((backgroundFrequency.get(word) ?? 0) + 0.5));
  const goalTerms = new Set(contentTerms(goal));
  const maxScore = Math.max(...top.map((hit) => hit.score), 1e-9);
  const mass = new Map<string, number>();
  const documentFrequency = new Map<string, number>();
  for (const hit of top) {
    const words = contentTerms(`${hit.title} ${hit.text}`).filter((word) => !goalTerms.has(word) && !NOISE.test(word));
    if (words.length === 0) continue;
    const weight = hit.score / maxScore;
    const counts = new Map<string, number>();
    for (const word of words) counts.set(word, (counts.get(word) ?? 0) + 1);
    for (const [word, count] of counts) {
      mass.set(word, (mass.get(word) ?? 0) + weight * (count / words.length) * idf(word));
      documentFrequency.set(word, (documentFrequency.get(word) ?? 0) + 1);
    }
  }
  // A term seen in one document only is as likely an accident of that document as evidence.
  return [...mass.entries()]
    .filter(([word]) => (documentFrequency.get(word) ?? 0) >= Math.min(2, top.length))
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, terms)
    .map(([word]) => word);
}
