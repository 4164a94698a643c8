import { STOPWORDS } from '../../runtime/text/english-stopwords';

/**
 * One spelling per entity, so "Person - centered therapy", "Person-centered Therapy" and
 * "Pokémon's" meet on one graph node: NFKD with the combining marks removed, lower case, every run
 * of non-letters/digits a single space, a trailing possessive and a leading article dropped.
 * An entity made of stopwords only ("The", "It is") is not an entity: the empty string says so.
 */
const COMBINING_MARKS = /\p{M}+/gu;
const SEPARATORS = /[^\p{L}\p{N}]+/gu;
const POSSESSIVE = /['’]s\b/giu;
const LEADING_ARTICLES = new Set(['the', 'a', 'an']);
/** Longer spans are sentences a capitalised heading ran into, not names. */
export const MAX_ENTITY_WORDS = 8;
export const MAX_ENTITY_CHARS = 120;

/** The words of any text in their original case, aligned with normalizedWords (one split, lower-casing apart). */
export function surfaceWords(text: string): readonly string[] {
  const folded = text.normalize('NFKD').replace(COMBINING_MARKS, '').replace(POSSESSIVE, '').replace(SEPARATORS, ' ').trim();
  return folded.length === 0 ? [] : folded.split(' ');
}

/** The words of any text, spelled as entity names are (for matching query n-grams against them). */
export const normalizedWords = (text: string): readonly string[] => surfaceWords(text).map((word) => word.toLowerCase());

export function normalizeEntity(text: string): string {
  if (text.length > 4 * MAX_ENTITY_CHARS) return '';
  const words = normalizedWords(text);
  if (words.length === 0 || words.join(' ').length > MAX_ENTITY_CHARS) return '';
  let start = 0;
  while (start < words.length - 1 && LEADING_ARTICLES.has(words[start])) start++;
  const kept = words.slice(start);
  if (kept.length > MAX_ENTITY_WORDS || kept.every((word) => STOPWORDS.has(word))) return '';
  return kept.join(' ');
}

/** The words of a normalised entity that carry meaning: the keys of the linker's token index. */
export const contentWords = (normalized: string): readonly string[] =>
  normalized.length === 0 ? [] : normalized.split(' ').filter((word) => !STOPWORDS.has(word));

/**
 * Aliases a Wikipedia-style title is mentioned by: "Lilu (mythology)" is written "Lilu" in running
 * text and "Leland, North Carolina" often just "Leland". The full title stays an entity as well.
 */
export function titleAliases(title: string): readonly string[] {
  const aliases = new Set<string>();
  const whole = normalizeEntity(title);
  if (whole) aliases.add(whole);
  const withoutQualifier = title.replace(/\s*\([^)]*\)\s*$/u, '');
  const beforeComma = withoutQualifier.split(',')[0];
  for (const alias of [withoutQualifier, beforeComma]) {
    const normalized = normalizeEntity(alias);
    if (normalized) aliases.add(normalized);
  }
  return [...aliases];
}
