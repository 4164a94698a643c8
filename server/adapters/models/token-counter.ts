import { Tiktoken } from 'js-tiktoken/lite';
import cl100kBase from 'js-tiktoken/ranks/cl100k_base';
import o200kBase from 'js-tiktoken/ranks/o200k_base';

/**
 * Token counting with the real BPE vocabularies (js-tiktoken), not a chars/4 guess: the cost
 * model and the context budget are only as good as these counts.
 *
 * o200k_base is the vocabulary of OpenAI's current models (gpt-4o, gpt-4.1, o-series) and the
 * default; cl100k_base (gpt-4, gpt-3.5) is kept as the alternative. Other providers' tokenizers are
 * not published, so o200k stands in for them too.
 */
export type TokenEncodingName = 'o200k_base' | 'cl100k_base';

export const DEFAULT_TOKEN_ENCODING: TokenEncodingName = 'o200k_base';

const RANKS = { o200k_base: o200kBase, cl100k_base: cl100kBase } as const;

// Building a Tiktoken parses the whole rank table: measured ~550 ms for o200k on this machine,
// against ~5 µs per short encode afterwards. So one encoder per vocabulary per process, built lazily.
const encoders = new Map<TokenEncodingName, Tiktoken>();

function encoderFor(encoding: TokenEncodingName): Tiktoken {
  let encoder = encoders.get(encoding);
  if (!encoder) {
    encoder = new Tiktoken(RANKS[encoding]);
    encoders.set(encoding, encoder);
  }
  return encoder;
}

/**
 * Builds the encoder now rather than inside the first model call, whose deadline it would eat:
 * call once at startup (CLI, server boot) when a short timeout is configured.
 */
export function preloadTokenEncoder(encoding: TokenEncodingName = DEFAULT_TOKEN_ENCODING): void {
  encoderFor(encoding);
}

// The same chunk texts are counted again and again (assembly, compression, cost model, usage
// fallback); a bounded memo turns the repeats into one Map lookup. Long texts are not memoised so
// the memo's memory stays bounded by MEMO_MAX_ENTRIES × MEMO_MAX_CHARS.
const MEMO_MAX_ENTRIES = 4096;
const MEMO_MAX_CHARS = 8192;
const memos = new Map<TokenEncodingName, Map<string, number>>();

/** Exact number of tokens of `text` in `encoding`. Special-token strings count as plain text. */
export function countTokens(text: string, encoding: TokenEncodingName = DEFAULT_TOKEN_ENCODING): number {
  if (text.length === 0) return 0;
  let memo = memos.get(encoding);
  if (!memo) {
    memo = new Map();
    memos.set(encoding, memo);
  }
  const remembered = memo.get(text);
  if (remembered !== undefined) return remembered;
  // allowedSpecial = disallowedSpecial = []: "<|endoftext|>" inside a document is data, not a control token.
  const count = encoderFor(encoding).encode(text, [], []).length;
  if (text.length <= MEMO_MAX_CHARS) {
    if (memo.size >= MEMO_MAX_ENTRIES) memo.delete(memo.keys().next().value as string);
    memo.set(text, count);
  }
  return count;
}

/**
 * Prompt tokens of a chat request. Adds OpenAI's documented chat framing — 3 tokens per message and
 * 3 to prime the reply (openai-cookbook "How to count tokens with tiktoken") — so the fallback count
 * lands where provider-reported usage does.
 */
export function countMessageTokens(
  messages: readonly { readonly content: string }[],
  encoding: TokenEncodingName = DEFAULT_TOKEN_ENCODING,
): number {
  const TOKENS_PER_MESSAGE = 3;
  const REPLY_PRIMING_TOKENS = 3;
  let total = REPLY_PRIMING_TOKENS;
  for (const message of messages) total += TOKENS_PER_MESSAGE + countTokens(message.content, encoding);
  return total;
}

/** A counter bound to one vocabulary, for plugins that expose `countTokens(text)`. */
export function createTokenCounter(encoding: TokenEncodingName = DEFAULT_TOKEN_ENCODING): (text: string) => number {
  return (text) => countTokens(text, encoding);
}
