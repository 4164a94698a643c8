import type { CompressionMethod, ContextItem } from '../types';

/** Contract version of the Compression plugin. */
export const COMPRESSION_CONTRACT = 'compression/v1' as const;

export interface CompressionResult {
  readonly items: readonly ContextItem[];
  /** What was cut, so the answer and EXPLAIN can say what the model never saw. */
  readonly omitted: readonly { readonly ref: number; readonly chunkId: string; readonly tokensRemoved: number; readonly why: string }[];
  readonly tokensBefore: number;
  readonly tokensAfter: number;
}

/** Lossy context reduction; every cut is recorded. */
export interface CompressionPlugin {
  readonly contract: typeof COMPRESSION_CONTRACT;
  readonly method: CompressionMethod;
  /** Expected fraction of tokens kept (cost model input). */
  readonly expectedRatio: number;
  /** Expected fraction of answer-bearing content lost (cost model input). */
  readonly expectedLoss: number;
  compress(goal: string, items: readonly ContextItem[], countTokens: (text: string) => number): CompressionResult;
}
