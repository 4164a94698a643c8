/**
 * Words as the GloVe vocabulary spells them: lower case, hyphenated and dotted compounds whole
 * when the vocabulary has them ("well-known", "e-mail", "3.5"), otherwise their parts. Parts the
 * vocabulary still lacks are split at camel-case humps ("OOMKilled" → "oom" "killed",
 * "CrashLoopBackOff" → "crash" "loop" "back" "off") and finally tried in the singular
 * ("retries" → "retry"): technical corpora are full of such tokens and a skipped word carries
 * no meaning at all.
 */
const TOKEN = /[\p{L}\p{N}]+(?:['’.\-_/:][\p{L}\p{N}]+)*/gu;
const PART_SEPARATOR = /['’.\-_/:]/;
const CAMEL_PART = /\p{Lu}+(?!\p{Ll})|\p{Lu}?\p{Ll}+|\p{N}+/gu;

/** Bounds the work on pasted megabyte logs: SIF over the first 4,096 words already fixes the direction. */
const MAX_TOKENS = 4096;

export function vocabularyTokens(text: string, rowOf: (word: string) => number): number[] {
  const rows: number[] = [];
  const push = (row: number) => {
    if (row >= 0 && rows.length < MAX_TOKENS) rows.push(row);
  };
  for (const match of text.matchAll(TOKEN)) {
    if (rows.length >= MAX_TOKENS) break;
    const whole = rowOf(match[0].toLowerCase());
    if (whole >= 0) {
      push(whole);
      continue;
    }
    for (const part of match[0].split(PART_SEPARATOR)) {
      const row = lookup(part.toLowerCase(), rowOf);
      if (row >= 0) {
        push(row);
        continue;
      }
      for (const hump of part.match(CAMEL_PART) ?? []) push(lookup(hump.toLowerCase(), rowOf));
    }
  }
  return rows;
}

function lookup(word: string, rowOf: (word: string) => number): number {
  if (word.length === 0) return -1;
  const exact = rowOf(word);
  if (exact >= 0 || word.length < 4) return exact;
  if (word.endsWith('ies')) return rowOf(`${word.slice(0, -3)}y`);
  if (word.endsWith('es')) {
    const withoutEs = rowOf(word.slice(0, -2));
    if (withoutEs >= 0) return withoutEs;
  }
  return word.endsWith('s') && !word.endsWith('ss') ? rowOf(word.slice(0, -1)) : -1;
}
