/**
 * The Semantic Plan Cache: serves a stored plan when every exact key part matches and the intent
 * matches by meaning. An in-process LRU of key buckets sits in front of the store so a repeated
 * or paraphrased goal is answered without a database round trip (embed once, compare in memory),
 * and an in-process index of the store's exact keys (live-key-index.ts) answers a miss whose key
 * no stored plan has without a round trip or, when its diagnosis runs behind, an embedding.
 */
import {
  PLAN_CACHE_CONTRACT,
  type PlanCacheEntry,
  type PlanCacheInvalidation,
  type PlanCacheKey,
  type PlanCacheLookup,
  type PlanCacheLookupOptions,
  type PlanCachePlugin,
  type PlanCacheRecord,
  type PlanCacheStats,
  type PlanCacheStatsQuery,
  type PlanCacheStorePlugin,
} from '../contracts/plan-cache';
import type { EmbedderPlugin } from '../contracts/embedder';
import { sha256Hex } from '../ir/plan-hash';
import { diagnoseMiss, type Candidate } from './near-miss';
import { DEFAULT_INTENT_MATCH, IntentMatcher, type IntentMatchSettings, type PreparedIntent } from './intent-matcher';
import { LiveKeyIndex } from './live-key-index';
import { LruMap } from './lru-map';
import { exactKeyOf } from './plan-cache-key';
import { PlanCacheCounters } from './plan-cache-counters';
import { type WriteBehindCounts, type WriteBehindOptions, WriteBehindQueue } from './write-behind-queue';

export interface SemanticPlanCacheOptions {
  readonly store: PlanCacheStorePlugin;
  readonly embedder: EmbedderPlugin;
  readonly match?: Partial<IntentMatchSettings>;
  /** Entries older than this are not served; undefined = never expire. */
  readonly ttlSeconds?: number;
  readonly now?: () => Date;
  /** Source names behind a fingerprint, recorded so invalidating one source finds its plans. */
  readonly sourceNamesOf?: (sourceFingerprint: string) => readonly string[] | undefined;
  /** Key buckets kept in process (default 2048). */
  readonly memoryBuckets?: number;
  /** How often the in-process front asks the store whether another process retired plans (default 1 s). */
  readonly revalidateMs?: number;
  /** Stored entries loaded per key bucket (default 64). */
  readonly bucketLimit?: number;
  /** The queue behind putBehind and deferred near-miss diagnoses. */
  readonly writeBehind?: WriteBehindOptions;
}

interface Bucket {
  readonly entries: { record: PlanCacheRecord; prepared: PreparedIntent }[];
}

export class SemanticPlanCache implements PlanCachePlugin {
  readonly contract = PLAN_CACHE_CONTRACT;
  readonly matcher: IntentMatcher;
  private readonly buckets: LruMap<string, Bucket>;
  private readonly counters: PlanCacheCounters;
  protected readonly now: () => Date;
  private generation?: string;
  private checkedAt = Number.NEGATIVE_INFINITY;
  private readonly behind: WriteBehindQueue;
  private readonly liveKeys: LiveKeyIndex;

  constructor(private readonly options: SemanticPlanCacheOptions) {
    this.matcher = new IntentMatcher(options.embedder, { ...DEFAULT_INTENT_MATCH, ...options.match });
    this.buckets = new LruMap(options.memoryBuckets ?? 2048);
    this.now = options.now ?? (() => new Date());
    this.counters = new PlanCacheCounters(options.store);
    this.behind = new WriteBehindQueue(options.writeBehind);
    this.liveKeys = new LiveKeyIndex(options.store, this.matcher.embedderId);
  }

  /** Writes and diagnoses queued behind requests: queued, done, failed, dropped, pending. */
  get writeBehindStats(): WriteBehindCounts {
    return this.behind.stats;
  }

  /** A cache outage (embedder or store) costs a cold plan, never a failed request; the miss says why. */
  async lookup(key: PlanCacheKey, options: PlanCacheLookupOptions = {}): Promise<PlanCacheLookup> {
    const now = this.now();
    const nearMiss = options.nearMiss ?? 'inline';
    const exactKey = exactKeyOf(key, this.matcher.embedderId);
    try {
      await this.revalidate(now);
    } catch (error) {
      this.counters.count(now, 'miss', 'store');
      return { status: 'miss', error: `plan cache store failed: ${messageOf(error)}` };
    }
    if (nearMiss === 'behind' && this.liveKeys.absent(exactKey)) {
      // No stored plan has this key: nothing to match, so the goal is embedded only by the diagnosis, behind.
      if (!this.buckets.get(exactKey)) this.emptyBucket(exactKey);
      const queued = this.behind.enqueue('near-miss diagnosis', () => this.diagnoseAbsent(key, now));
      if (!queued) this.counters.count(now, 'miss');
      return { status: 'miss' };
    }
    let prepared: PreparedIntent;
    try {
      prepared = await this.matcher.prepare(key.intent);
    } catch (error) {
      this.counters.count(now, 'miss', 'embedder');
      return { status: 'miss', error: `intent embedder failed: ${messageOf(error)}` };
    }
    try {
      return await this.match(key, exactKey, prepared, now, nearMiss);
    } catch (error) {
      this.counters.count(now, 'miss', 'store');
      return { status: 'miss', error: `plan cache store failed: ${messageOf(error)}` };
    }
  }

  private async match(key: PlanCacheKey, exactKey: string, prepared: PreparedIntent, now: Date, nearMiss: 'inline' | 'behind'): Promise<PlanCacheLookup> {
    let bucket = this.buckets.get(exactKey);
    const tier = bucket ? 'memory' : 'store';
    bucket ??= this.liveKeys.absent(exactKey) ? this.emptyBucket(exactKey) : await this.loadBucket(exactKey, prepared);
    let best: { entry: Bucket['entries'][number]; similarity: number } | undefined;
    for (const entry of bucket.entries) {
      if (entry.record.expiresAt && entry.record.expiresAt <= now) continue;
      const similarity = this.matcher.matchedSimilarity(prepared, entry.prepared);
      if (similarity !== undefined && (!best || similarity > best.similarity)) best = { entry, similarity };
    }
    if (best) {
      this.counters.count(now, 'hit');
      this.counters.hit(best.entry.record.id, now);
      if (best.similarity < 1 && !bucket.entries.some((entry) => entry.record.key.intent === key.intent)) this.learnWording(bucket, best.entry.record, key, prepared);
      return { status: 'hit', entry: entryOf(best.entry.record), similarity: best.similarity, tier };
    }
    const inBucket: Candidate[] = bucket.entries.map(({ record, prepared: stored }) => ({ record, prepared: stored }));
    if (nearMiss === 'behind') {
      // The counters still learn near miss or miss, once the diagnosis has run; a dropped one counts as a plain miss.
      const queued = this.behind.enqueue('near-miss diagnosis', () => this.diagnose(key, prepared, now, inBucket).then(() => undefined));
      if (!queued) this.counters.count(now, 'miss');
      return { status: 'miss' };
    }
    const diagnosed = await this.diagnose(key, prepared, now, inBucket);
    return diagnosed ? { status: 'miss', nearMiss: diagnosed } : { status: 'miss' };
  }

  /** The queued diagnosis of a miss known from the key index: the goal is embedded here, off the request. */
  private async diagnoseAbsent(key: PlanCacheKey, now: Date): Promise<void> {
    let prepared: PreparedIntent;
    try {
      prepared = await this.matcher.prepare(key.intent);
    } catch {
      this.counters.count(now, 'miss', 'embedder');
      return;
    }
    await this.diagnose(key, prepared, now, []);
  }

  /** The near miss of a lookup that missed (two vector scans in the store), counted. */
  private async diagnose(key: PlanCacheKey, prepared: PreparedIntent, now: Date, inBucket: readonly Candidate[]) {
    const nearMiss = await diagnoseMiss(key, prepared, this.matcher, now, [...inBucket, ...(await this.nearest(prepared))]);
    this.counters.count(now, nearMiss ? 'near_miss' : 'miss', nearMiss?.differs[0]);
    return nearMiss;
  }

  async put(key: PlanCacheKey, planHash: string, payload: unknown): Promise<void> {
    const { record, written, prepared } = await this.recordOf(key, planHash, payload);
    // Best effort: a plan that could not be stored is planned again next time, nothing worse.
    const stored = await this.options.store.upsert(written).then(() => true, () => false);
    if (stored) this.remember(record, prepared);
  }

  putBehind(key: PlanCacheKey, planHash: string, payload: () => unknown): boolean {
    return this.behind.enqueue('plan write', async () => {
      const { record, written, prepared } = await this.recordOf(key, planHash, payload());
      await this.options.store.upsert(written);
      this.remember(record, prepared);
    });
  }

  /**
   * The record the cache remembers, and the one the store writes (the same fields with the payload's
   * JSON text). The store writes JSON anyway, so the payload is serialised once, here; the cache's
   * own copy is parsed back from that text (what a hit read from the row would hold) only when a hit
   * first needs it. A structuredClone, a deep freeze and a second stringify ran behind every miss
   * before, ~1.5 ms of CPU on bench:retrieval's SciFact run, where no entry is ever hit.
   */
  private async recordOf(key: PlanCacheKey, planHash: string, payload: unknown): Promise<{ record: PlanCacheRecord; written: PlanCacheRecord; prepared: PreparedIntent }> {
    const prepared = await this.matcher.prepare(key.intent);
    const exactKey = exactKeyOf(key, this.matcher.embedderId);
    const createdAt = this.now();
    const payloadJson = JSON.stringify(payload ?? null);
    const fields = {
      id: `plan_${sha256Hex(`${exactKey}\u0000${key.intent}`).slice(0, 32)}`,
      exactKey,
      key: Object.freeze({ ...key }),
      embedderId: this.matcher.embedderId,
      vector: prepared.vector,
      sourceNames: Object.freeze([...(this.options.sourceNamesOf?.(key.sourceFingerprint) ?? [])]),
      planHash,
      createdAt,
      expiresAt: this.options.ttlSeconds === undefined ? undefined : new Date(createdAt.getTime() + this.options.ttlSeconds * 1000),
      hits: 0,
    };
    let parsed: unknown;
    const record: PlanCacheRecord = Object.freeze({
      ...fields,
      get payload(): unknown {
        return (parsed ??= deepFreeze(JSON.parse(payloadJson) as unknown));
      },
    });
    return { record, written: Object.freeze({ ...fields, payload: undefined, payloadJson }), prepared };
  }

  /** A stored entry joins its key bucket in memory, if that bucket is loaded. */
  private remember(record: PlanCacheRecord, prepared: PreparedIntent): void {
    this.liveKeys.add(record.exactKey);
    const bucket = this.buckets.get(record.exactKey);
    if (bucket) {
      const index = bucket.entries.findIndex((entry) => entry.record.id === record.id);
      if (index >= 0) bucket.entries.splice(index, 1);
      bucket.entries.push({ record, prepared });
    }
  }

  invalidateSource(sourceName: string): Promise<number> {
    return this.invalidate({ sourceName, reason: `source ${sourceName} changed` });
  }

  async invalidate(scope: PlanCacheInvalidation): Promise<number> {
    const retired = await this.options.store.retire({ sourceName: scope.sourceName, all: scope.all }, scope.reason, this.now());
    this.buckets.clear();
    this.generation = await this.options.store.generation();
    // Retired keys leave the store: re-read the index now rather than keep them as "maybe present".
    this.liveKeys.stale();
    await this.liveKeys.sync().catch(() => undefined);
    return retired;
  }

  async stats(query: PlanCacheStatsQuery): Promise<PlanCacheStats> {
    await this.flush();
    return this.counters.stats(query, this.matcher.settings.threshold, await this.options.store.entryCounts(this.now()));
  }

  /** Lands the writes and diagnoses queued behind, then writes pending counters and hit counts (stats() and the runtime's close() call it). */
  async flush(): Promise<void> {
    await this.behind.flush();
    await this.counters.flush();
  }

  /**
   * Files a served paraphrase under its own wording (same exact key, same plan, same expiry):
   * matching is not transitive, so the next wording may be close to this one and not to the
   * original. Measured on bench:plancache, a third of the hits a correct cache could make but
   * this one missed were such chains. The write is not awaited: a hit never waits on the store.
   */
  private learnWording(bucket: Bucket, served: PlanCacheRecord, key: PlanCacheKey, prepared: PreparedIntent): void {
    const record: PlanCacheRecord = Object.freeze({
      ...served,
      id: `plan_${sha256Hex(`${served.exactKey}\u0000${key.intent}`).slice(0, 32)}`,
      key: Object.freeze({ ...served.key, intent: key.intent }),
      vector: prepared.vector,
      hits: 0,
    });
    bucket.entries.push({ record, prepared });
    void this.options.store.upsert(record).catch(() => undefined);
  }

  /**
   * The bucket of a key the store does not hold, kept in memory like a loaded one: this process's
   * own write of that key then lands in it (remember), so the next lookup is served from memory.
   */
  private emptyBucket(exactKey: string): Bucket {
    const bucket: Bucket = { entries: [] };
    this.buckets.set(exactKey, bucket);
    return bucket;
  }

  private async loadBucket(exactKey: string, prepared: PreparedIntent): Promise<Bucket> {
    const records = await this.options.store.candidates(exactKey, prepared.vector, this.options.bucketLimit ?? 64);
    const entries = await Promise.all(records.map(async (record) => ({ record, prepared: await this.matcher.prepareStored(record.key.intent, record.vector) })));
    const bucket = { entries };
    this.buckets.set(exactKey, bucket);
    return bucket;
  }

  private async nearest(prepared: PreparedIntent): Promise<Candidate[]> {
    const records = await this.options.store.nearest(this.matcher.embedderId, prepared.vector, 8);
    return Promise.all(records.map(async (record) => ({ record, prepared: await this.matcher.prepareStored(record.key.intent, record.vector) })));
  }

  /** Another process may have retired plans: drop the in-process front when the store says so. */
  private async revalidate(now: Date): Promise<void> {
    if (now.getTime() - this.checkedAt < (this.options.revalidateMs ?? 1000)) return;
    this.checkedAt = now.getTime();
    const generation = await this.options.store.generation();
    if (this.generation !== undefined && generation !== this.generation) {
      this.buckets.clear();
      this.liveKeys.stale();
    }
    this.generation = generation;
    // The first lookup's read of the key index, and keys another process has stored plans under since:
    // a bucket held in memory for one of those was read before that plan existed.
    for (const appeared of await this.liveKeys.sync()) this.buckets.delete(appeared);
  }
}

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

function entryOf(record: PlanCacheRecord): PlanCacheEntry {
  return { key: record.key, planHash: record.planHash, payload: record.payload, createdAt: record.createdAt.toISOString(), hits: record.hits };
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
