/**
 * Terms for matching a question against context: lower-cased words and identifiers, identifiers
 * also split into their parts ("checkout-7d9f4" → "checkout", "7d9f4"), light suffix stripping,
 * no stopwords. Shared by citation quoting and the extractive reader so both match alike.
 */

export const STOPWORDS: ReadonlySet<string> = new Set(
  (
    'a an the and or but if then else of to in on at by for with from into onto over under about as is are was were be been ' +
    'being am do does did done doing have has had having it its this that these those there here what which who whom whose ' +
    'why how when where i me my we our you your he she they them their his her not no nor so than too very can could should ' +
    'would will shall may might must just also any all some such each both few more most other own same only out up down off ' +
    'again further once per via please tell show explain give find know let get got us'
  ).split(' '),
);

const TOKEN = /[a-z0-9][a-z0-9_.:/-]*[a-z0-9]|[a-z0-9]/g;

/** Strips common English inflections so "restarts", "restarted", "restarting" meet at "restart". */
export function stem(word: string): string {
  if (word.length <= 3 || /\d/.test(word)) return word;
  let base = word;
  if (base.endsWith('ies') && base.length > 5) base = `${base.slice(0, -3)}y`;
  else if (base.endsWith('ing') && base.length > 6) base = base.slice(0, -3);
  else if (base.endsWith('ed') && base.length > 5) base = base.slice(0, -2);
  else if (/(ss|sh|ch|x|z)es$/.test(base)) base = base.slice(0, -2);
  else if (base.endsWith('s') && !/(ss|us|is)$/.test(base)) base = base.slice(0, -1);
  // A final silent e is dropped after the inflection so "cause"/"caused"/"causes" all meet at "caus".
  if (base.length > 4 && base.endsWith('e')) base = base.slice(0, -1);
  return base;
}

/** Raw lower-cased tokens of `text`, identifiers kept whole. */
export function tokenize(text: string): string[] {
  return text.toLowerCase().match(TOKEN) ?? [];
}

/** Content terms of `text` (with repeats): whole identifiers plus their parts, stemmed, stopwords removed. */
export function contentTerms(text: string): string[] {
  const terms: string[] = [];
  for (const token of tokenize(text)) {
    const parts = token.split(/[_.:/-]+/).filter((part) => part.length > 0);
    const candidates = parts.length > 1 ? [token, ...parts] : [token];
    for (const candidate of candidates) {
      if (STOPWORDS.has(candidate) || (candidate.length === 1 && !/\d/.test(candidate))) continue;
      terms.push(stem(candidate));
    }
  }
  return terms;
}
