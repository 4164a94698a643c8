/** Contract version of the PlanCache plugin (v2: semantic intent match, split key parts, lookup/explain, stats). */
export const PLAN_CACHE_CONTRACT = 'plan-cache/v2' as const;

/**
 * A plan is reused only when every exact part matches and the intent matches semantically.
 * Soundness rides on deterministic replay: the planner reads nothing outside these parts.
 */
export interface PlanCacheKey {
  /** Normalized goal: matched by meaning (embedding + term alignment), not string equality. */
  readonly intent: string;
  /** What the planner reads from the intent (classes) and what it is about (entities, identifiers); exact. */
  readonly intentShape: string;
  readonly sourceFingerprint: string;
  /** The policy rules and what they decided for this request. */
  readonly policyFingerprint: string;
  /** The principal's roles and the sources they may read. */
  readonly permissionFingerprint: string;
  /** Canonical constraints, weights and configured budgets: different budgets never share a plan. */
  readonly constraintEnvelope: string;
  readonly plannerVersion: string;
  /** Retrievers, model tiers and their capabilities, and the retrieval/scheduler settings. */
  readonly capabilityFingerprint: string;
}

/** Key parts a near miss can name; `intent` = the nearest entry's meaning was below the threshold. */
export type PlanCacheKeyPart = 'intent' | 'intent_shape' | 'sources' | 'permissions' | 'policy' | 'constraints' | 'planner' | 'capabilities' | 'embedder';
export type PlanCacheMissReason = PlanCacheKeyPart | 'expired' | 'invalidated';

export interface PlanCacheEntry {
  readonly key: PlanCacheKey;
  readonly planHash: string;
  /** The serialized planning result (candidate choice, estimates, graph JSON). */
  readonly payload: unknown;
  readonly createdAt: string;
  readonly hits: number;
}

export interface PlanCacheNearMiss {
  /** The nearest stored intent (live, expired or retired). */
  readonly intent: string;
  readonly similarity: number;
  readonly threshold: number;
  /** Share of content words with a counterpart in the other intent (both ways, the lower). */
  readonly termCoverage: number;
  /** Every part that kept it from being served, most decisive first. */
  readonly differs: readonly PlanCacheMissReason[];
  readonly invalidatedReason?: string;
  readonly createdAt: string;
}

export interface PlanCacheLookup {
  readonly status: 'hit' | 'miss';
  readonly entry?: PlanCacheEntry;
  /** Similarity of the served entry's intent to the lookup's (1 = same text). */
  readonly similarity?: number;
  /** Where the hit came from: the in-process front or the backing store. */
  readonly tier?: 'memory' | 'store';
  readonly nearMiss?: PlanCacheNearMiss;
  /** Why the cache could not answer (embedder or store down): the request is planned cold. */
  readonly error?: string;
}

export interface PlanCacheInvalidation {
  /** Retire the plans drawing on this source; omit (with `all`) to retire everything. */
  readonly sourceName?: string;
  readonly all?: boolean;
  readonly reason: string;
}

export interface PlanCacheStatsQuery {
  readonly since: Date;
  readonly until: Date;
  readonly bucketSeconds: number;
}

export interface PlanCacheCounts {
  readonly lookups: number;
  readonly hits: number;
  readonly nearMisses: number;
  readonly misses: number;
  /** Near misses by the first part that differed. */
  readonly byReason: Readonly<Record<string, number>>;
}

export interface PlanCacheStatsBucket extends PlanCacheCounts {
  readonly start: string;
  readonly hitRate: number;
}

export interface PlanCacheStats {
  readonly buckets: readonly PlanCacheStatsBucket[];
  readonly totals: PlanCacheCounts & { readonly hitRate: number };
  readonly entries: { readonly live: number; readonly expired: number; readonly retired: number };
  readonly threshold: number;
}

export interface PlanCacheLookupOptions {
  /**
   * `inline` (default): a miss carries its near-miss diagnosis. `behind`: the miss returns at once
   * and the diagnosis runs after (it only feeds the hit-rate counters then): EXPLAIN asks inline,
   * plan() for a run does not wait for it (issue 16 point 5).
   */
  readonly nearMiss?: 'inline' | 'behind';
}

/** Caches the planning decision, not the answer: a hit still retrieves and calls models. */
export interface PlanCachePlugin {
  readonly contract: typeof PLAN_CACHE_CONTRACT;
  lookup(key: PlanCacheKey, options?: PlanCacheLookupOptions): Promise<PlanCacheLookup>;
  put(key: PlanCacheKey, planHash: string, payload: unknown): Promise<void>;
  /**
   * Writes the entry after the caller has moved on (bounded queue; failures logged and counted);
   * `payload` is built then too. False when the queue was full and the write was dropped.
   */
  putBehind?(key: PlanCacheKey, planHash: string, payload: () => unknown): boolean;
  /** Waits for writes and diagnoses queued behind, and persists pending counters (close and stats call it). */
  flush?(): Promise<void>;
  invalidateSource(sourceName: string): Promise<number>;
  invalidate(scope: PlanCacheInvalidation): Promise<number>;
  stats(query: PlanCacheStatsQuery): Promise<PlanCacheStats>;
}

/** One stored plan as the persistence port sees it. */
export interface PlanCacheRecord {
  readonly id: string;
  /** Hash of every exact part (all but `intent`) and the embedder id: the candidate filter. */
  readonly exactKey: string;
  readonly key: PlanCacheKey;
  readonly embedderId: string;
  readonly vector: Float32Array;
  readonly sourceNames: readonly string[];
  readonly planHash: string;
  readonly payload: unknown;
  /** The payload as JSON text, when the cache has serialised it already: a store writes this as is (and may then find `payload` undefined). */
  readonly payloadJson?: string;
  readonly createdAt: Date;
  readonly expiresAt?: Date;
  readonly hits: number;
  /** Set on retired records (kept only to explain near misses). */
  readonly retiredAt?: Date;
  readonly retiredReason?: string;
}

/** Persistence behind the semantic plan cache (Postgres adapter; an in-memory one for tests). */
export interface PlanCacheStorePlugin {
  /** Nearest-neighbour search runs in the store (pgvector); otherwise the cache ranks in process. */
  readonly vectorSearch: boolean;
  /** Live records with this exact key, nearest first when vectorSearch (at most `limit`). */
  candidates(exactKey: string, vector: Float32Array, limit: number): Promise<readonly PlanCacheRecord[]>;
  /** Live and retired records of this embedder nearest to `vector`, for near-miss diagnostics (never served, so their payload may be left out). */
  nearest(embedderId: string, vector: Float32Array, limit: number): Promise<readonly PlanCacheRecord[]>;
  /** Inserts, replacing a record with the same exact key and intent. */
  upsert(record: PlanCacheRecord): Promise<void>;
  addHits(hits: ReadonlyMap<string, { readonly count: number; readonly at: Date }>): Promise<void>;
  /** Moves matching live records to the retired set; returns how many. */
  retire(scope: { readonly sourceName?: string; readonly all?: boolean }, reason: string, at: Date): Promise<number>;
  /** Changes whenever another process may have retired records. */
  generation(): Promise<string>;
  /**
   * Changes whenever a live record is added or removed, by any process (optional: a store without
   * it and `liveExactKeys` is asked on every lookup whose key bucket is not in memory).
   */
  liveVersion?(): Promise<string>;
  /** The distinct exact keys of this embedder's live records (the in-process key index: plancache/live-key-index.ts). */
  liveExactKeys?(embedderId: string): Promise<readonly string[]>;
  addCounts(bucketStart: Date, counts: PlanCacheCounts): Promise<void>;
  counts(since: Date, until: Date): Promise<readonly (PlanCacheCounts & { readonly start: Date })[]>;
  entryCounts(now: Date): Promise<PlanCacheStats['entries']>;
}
