import type { CountTokens } from './ingest-types';

/**
 * Whitespace word count: a deterministic stand-in for a BPE tokenizer in tests and offline tools.
 * English prose runs ~1.3 BPE tokens per word (o200k/cl100k), so limits set in tokens are met with margin.
 */
export const countWords: CountTokens = (text) => {
  const words = text.match(/\S+/g);
  return words ? words.length : 0;
};
