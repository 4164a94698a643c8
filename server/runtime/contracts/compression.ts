import type { CompressionMethod, ContextItem } from '../types';

/** Contract version of the Compression plugin. */
export const COMPRESSION_CONTRACT = 'compression/v1' as const;

/** One cut: what the model never saw of a chunk, so the answer and EXPLAIN can say so. */
export interface CompressionOmission {
  readonly ref: number;
  readonly chunkId: string;
  readonly tokensRemoved: number;
  readonly why: string;
  /** 0-based indexes of the chunk's sentences that were cut (absent when a compressor cuts by length, not by sentence). */
  readonly sentences?: readonly number[];
}

/**
 * Where a compressed context came from and when it goes out of date: the chunks it was derived
 * from with the source versions they belong to, and the refresh trigger — a new version of any of
 * those sources makes it stale (the Knowledge Layer marks what is derived from a superseded version).
 */
export interface CompressionLineage {
  readonly method: CompressionMethod;
  readonly derivedFrom: readonly { readonly chunkId: string; readonly sourceName: string; readonly sourceVersionId: string; readonly tokens: number }[];
  /** Refresh trigger: the source versions read; a newer version of any of them invalidates the compressed context. */
  readonly refreshOn: readonly { readonly sourceName: string; readonly sourceVersionId: string }[];
}

export interface CompressionResult {
  readonly items: readonly ContextItem[];
  /** What was cut, so the answer and EXPLAIN can say what the model never saw. */
  readonly omitted: readonly CompressionOmission[];
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

/** A compressed context as kept for reuse: the packed text per chunk, the cuts and the lineage. */
export interface StoredCompression {
  readonly items: readonly { readonly chunkId: string; readonly text: string; readonly tokens: number; readonly compressed: boolean }[];
  readonly omitted: readonly CompressionOmission[];
  readonly tokensBefore: number;
  readonly tokensAfter: number;
  readonly lineage: CompressionLineage;
}

/**
 * Where compressed contexts are kept and served again (the Knowledge Layer keeps each as a summary
 * node derived_from its chunks). `find` honours the refresh trigger: a compressed context whose
 * origin has a newer source version is stale and never returned.
 */
export interface CompressedContextStore {
  find(key: string): Promise<{ readonly nodeId: string; readonly stored: StoredCompression } | undefined>;
  /** Returns the summary node's id. */
  record(key: string, goal: string, stored: StoredCompression): Promise<string>;
}
