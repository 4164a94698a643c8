/**
 * Turns whatever a user typed into safe search terms. Identifiers keep their inner punctuation
 * ("ERR-1234", "10.0.0.7", "checkout-api/v2") because the english parser indexes them whole as
 * well as in parts; everything else that is not a letter or digit is a separator. No term ever
 * carries a quote, so nothing the user types can change the query syntax.
 */
import { joinedNounsOf } from './phrasal-compounds';

const TERM = /[\p{L}\p{N}](?:[\p{L}\p{N}_.:/-]*[\p{L}\p{N}])?/gu;

/** Bounds on work per query: long pasted logs should not become 10,000-term queries. */
const MAX_TERMS = 64;
const MAX_TERM_LENGTH = 100;

export function extractTerms(text: string, identifiers: readonly string[] = []): readonly string[] {
  const seen = new Set<string>();
  const terms: string[] = [];
  for (const source of [text, joinedNounsOf(text).join(' '), ...identifiers]) {
    for (const match of source.matchAll(TERM)) {
      const term = match[0].slice(0, MAX_TERM_LENGTH);
      const key = term.toLowerCase();
      if (seen.has(key)) continue;
      seen.add(key);
      terms.push(term);
      if (terms.length >= MAX_TERMS) return Object.freeze(terms);
    }
  }
  return Object.freeze(terms);
}

/**
 * websearch_to_tsquery input that ORs the terms: a chunk matching some of the words still ranks
 * (plain websearch syntax ANDs them, so one unknown word would empty the result). Each term is
 * quoted, making multi-part identifiers a phrase of their parts.
 */
export const toWebsearchDisjunction = (terms: readonly string[]): string => terms.map((term) => `"${term}"`).join(' or ');

/** to_bm25query input: bm25 scoring is already disjunctive, so the terms separated by spaces suffice. */
export const toBm25Text = (terms: readonly string[]): string => terms.join(' ');
