import type { TokenUsage } from '../types';

/** Contract version of the model-context cache's store (the port the adapter implements). */
export const MODEL_CACHE_STORE_CONTRACT = 'model-cache-store/v1' as const;

/** A source version a cached prompt held passages of. */
export interface CachedSourceVersion {
  readonly name: string;
  readonly versionId: string;
}

/** One model response kept for reuse: what answered, and what the prompt was made of. */
export interface ModelCacheEntry {
  /** Hash of (model, prompt, parameters, source versions): server/runtime/modelcache/model-cache-key.ts. */
  readonly key: string;
  readonly modelId: string;
  readonly tier: string;
  /** Every source version whose passages the prompt held: a change to one drops the entry. */
  readonly sources: readonly CachedSourceVersion[];
  /** The passages the prompt held, for lineage ("which chunks did this cached answer see"). */
  readonly chunkIds: readonly string[];
  readonly text: string;
  /** What the call cost when it was made: a hit saves this much. */
  readonly usage: TokenUsage;
  readonly costUsd: number;
  readonly latencyMs: number;
  readonly createdAt: string;
  readonly expiresAt: string;
}

/** Lookups and hits of one (model, intent class): the measured hit rate the cost model reads. */
export interface ModelCacheTally {
  readonly modelId: string;
  readonly intentClass: string;
  readonly lookups: number;
  readonly hits: number;
}

/** Persistence of the model-context cache (a Postgres table in the adapter, a Map in tests). */
export interface ModelCacheStorePlugin {
  readonly contract: typeof MODEL_CACHE_STORE_CONTRACT;
  /** The entry under `key` unless it expired by `now`. */
  lookup(key: string, now: Date): Promise<ModelCacheEntry | undefined>;
  /** Writes (or replaces) the entry under its key. */
  save(entry: ModelCacheEntry): Promise<void>;
  /** Drops every entry whose prompt held a passage of `sourceName`; returns how many. */
  invalidateSource(sourceName: string): Promise<number>;
  /** Adds one lookup (a hit or not) to the tally of (model, intent class). */
  recordLookup(modelId: string, intentClass: string, hit: boolean): Promise<void>;
  /** Every tally, for the planner's hit-rate estimate. */
  tallies(): Promise<readonly ModelCacheTally[]>;
}
