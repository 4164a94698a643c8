/**
 * Terms for matching a question against context: lower-cased words and identifiers, identifiers
 * also split into their parts ("checkout-7d9f4" → "checkout", "7d9f4"), Snowball English stems,
 * no stopwords. Shared by citation quoting and the extractive reader so both match alike, and
 * stemmed and stopped as PostgreSQL's `english` configuration does for bm25, so they match what
 * retrieval matched.
 */
import { stem as porter2Stem } from 'porter2';
import { MATCHING_STOPWORDS } from './english-stopwords';

const TOKEN = /[a-z0-9][a-z0-9_.:/-]*[a-z0-9]|[a-z0-9]/g;

/**
 * A two-letter Porter2 stem left by undoubling ("adding" → "ad"). PostgreSQL 18's Snowball (PGlite's)
 * keeps the double when the stem would be a, e or o plus one consonant ("add", "egg", "err"; but
 * "inned" → "in", measured over every such pair; only after -ed/-ing: "onness" → "on"); porter2 and
 * PostgreSQL ≤ 17 undouble. Over 354k words built from the benchmark corpora these were the only
 * disagreements (text-terms.test.ts compares a sample).
 */
const UNDOUBLED_SHORT_STEM = /^[aeo][bdfgmnprt]$/;

/** Snowball English (Porter2) stem of a lower-case word, as PostgreSQL's english_stem gives it; words with digits are left whole as its parser does. */
export function stem(word: string): string {
  if (/\d/.test(word) || !/^[a-z]+$/.test(word)) return word;
  const stemmed = porter2Stem(word);
  const doubled = stemmed + stemmed[1];
  if (UNDOUBLED_SHORT_STEM.test(stemmed) && word.startsWith(doubled) && /^(ed|ing)/.test(word.slice(3))) return doubled;
  return stemmed;
}

/** Raw lower-cased tokens of `text`, identifiers kept whole. */
export function tokenize(text: string): string[] {
  return text.toLowerCase().match(TOKEN) ?? [];
}

/** Content terms of `text` (with repeats): whole identifiers plus their parts, stemmed, MATCHING_STOPWORDS removed. */
export function contentTerms(text: string): string[] {
  const terms: string[] = [];
  for (const token of tokenize(text)) {
    const parts = token.split(/[_.:/-]+/).filter((part) => part.length > 0);
    const candidates = parts.length > 1 ? [token, ...parts] : [token];
    for (const candidate of candidates) {
      if (MATCHING_STOPWORDS.has(candidate) || (candidate.length === 1 && !/\d/.test(candidate))) continue;
      terms.push(stem(candidate));
    }
  }
  return terms;
}
