/** Small text helpers shared by compression, verification and the extractive path. */

const SENTENCE_BOUNDARY = /(?<=[.!?])\s+(?=[A-Z0-9"'(\[])|\n+/;

/** Sentences, with log lines and list items counting as sentences (they are the unit of evidence there). */
export function splitSentences(text: string): string[] {
  return text
    .split(SENTENCE_BOUNDARY)
    .map((sentence) => sentence.trim())
    .filter((sentence) => sentence.length > 0);
}

const STOPWORDS = new Set(
  'a an and are as at be been but by did do does for from had has have how i if in into is it its of on or so that the their then there these this to was were what when where which who why will with you your explain describe tell me show'.split(' '),
);

/** Lower-case content terms (letters, digits, - and _ kept inside identifiers). */
export function contentTerms(text: string): string[] {
  const terms = text.toLowerCase().match(/[a-z0-9][a-z0-9_\-.]*[a-z0-9]|[a-z0-9]/g) ?? [];
  return terms.filter((term) => !STOPWORDS.has(term));
}
