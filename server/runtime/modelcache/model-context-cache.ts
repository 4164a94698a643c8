/**
 * The model-context cache (issue 15 point 6; the reference's prompt cache, distinct from the Plan
 * Cache, which keeps plans and never answers): a model response kept by (model, prompt, parameters,
 * cited source versions) in the store, served again to a caller who sends the same prompt.
 *
 * Soundness, in three layers:
 *   - the key holds the versions of the sources whose passages the prompt held, so a prompt built
 *     from a newer version never meets an answer made from an older one;
 *   - a source that changes version drops its entries (the runtime wires the store's
 *     onSourceChanged hook to invalidateSource, as it does for the source-read cache);
 *   - on a hit the entry is checked again: every source version it holds must still be current
 *     (another process may have ingested, and its hook ran there) and readable by the caller — a
 *     sensitive source's answer is never served to someone who may not read that source.
 * A store that fails is a miss, never a failed run: the cache only ever saves calls.
 */
import type { CachedSourceVersion, ModelCacheEntry, ModelCacheStorePlugin, ModelCacheTally } from '../contracts/model-cache';

export interface ModelCacheSettings {
  readonly ttlSeconds: number;
  readonly now?: () => Date;
  /** Where store failures are reported (they never fail a run). */
  readonly warn?: (message: string) => void;
}

/** What a hit is checked against, per call. */
export interface HitCheck {
  /** The caller may read every named source (access/principal-access.ts). */
  mayReadSources(names: readonly string[]): boolean;
  /** Current version of each source by name; a source missing from it was removed. */
  currentVersions(): Promise<ReadonlyMap<string, string>>;
}

/** Why a lookup served nothing, for counters and tests. */
export type MissReason = 'absent' | 'stale_version' | 'not_readable' | 'store_error';

export class ModelContextCache {
  private readonly counts = new Map<string, { modelId: string; intentClass: string; lookups: number; hits: number }>();
  private loaded?: Promise<void>;
  private snapshot?: readonly ModelCacheTally[];
  private readonly missReasons = new Map<MissReason, number>();

  constructor(private readonly store: ModelCacheStorePlugin, private readonly settings: ModelCacheSettings) {}

  /** Loads the persisted tallies once, before the first plan reads them; a failed load is retried by the next plan. */
  ready(): Promise<void> {
    this.loaded ??= this.store.tallies().then(
      (tallies) => {
        for (const tally of tallies) this.add(tally.modelId, tally.intentClass, tally.lookups, tally.hits);
      },
      (error: unknown) => {
        this.loaded = undefined;
        this.warn('reading the cache tallies', error);
      },
    );
    return this.loaded;
  }

  /** Lookups and hits per (model, intent class) so far; a new array after every lookup (the cost model memoises per array). */
  tallies(): readonly ModelCacheTally[] {
    return (this.snapshot ??= Object.freeze([...this.counts.values()].map((counts) => Object.freeze({ ...counts }))));
  }

  /** Misses by reason since this process started (a test or bench reads why nothing was served). */
  misses(): ReadonlyMap<MissReason, number> {
    return this.missReasons;
  }

  /** The entry under `key` if it may be served to this caller now; counts the lookup either way. */
  async find(key: string, modelId: string, intentClass: string, check: HitCheck): Promise<ModelCacheEntry | undefined> {
    let entry: ModelCacheEntry | undefined;
    let reason: MissReason | undefined;
    try {
      entry = await this.store.lookup(key, this.now());
      if (!entry) reason = 'absent';
      else if (!check.mayReadSources(entry.sources.map((source) => source.name))) reason = 'not_readable';
      else if (!isCurrent(entry.sources, await check.currentVersions())) reason = 'stale_version';
    } catch (error) {
      reason = 'store_error';
      this.warn('looking up a cached model response', error);
    }
    if (reason) this.missReasons.set(reason, (this.missReasons.get(reason) ?? 0) + 1);
    const hit = reason === undefined;
    this.add(modelId, intentClass, 1, hit ? 1 : 0);
    this.store.recordLookup(modelId, intentClass, hit).catch((error: unknown) => this.warn('counting a cache lookup', error));
    return hit ? entry : undefined;
  }

  /** Keeps a fresh response for ttl_seconds. */
  async keep(entry: Omit<ModelCacheEntry, 'createdAt' | 'expiresAt'>): Promise<void> {
    const now = this.now();
    const expiresAt = new Date(now.getTime() + this.settings.ttlSeconds * 1000);
    try {
      await this.store.save(Object.freeze({ ...entry, createdAt: now.toISOString(), expiresAt: expiresAt.toISOString() }));
    } catch (error) {
      this.warn('keeping a model response', error);
    }
  }

  /** Drops the entries whose prompt held a passage of `sourceName` (wired to the store's source-change hook). */
  invalidateSource(sourceName: string): Promise<number> {
    return this.store.invalidateSource(sourceName);
  }

  private add(modelId: string, intentClass: string, lookups: number, hits: number): void {
    const id = `${modelId}\u0000${intentClass}`;
    const counts = this.counts.get(id) ?? { modelId, intentClass, lookups: 0, hits: 0 };
    counts.lookups += lookups;
    counts.hits += hits;
    this.counts.set(id, counts);
    this.snapshot = undefined;
  }

  private now(): Date {
    return this.settings.now?.() ?? new Date();
  }

  private warn(what: string, error: unknown): void {
    const message = `[model-cache] ${what}: ${error instanceof Error ? error.message : String(error)}`;
    (this.settings.warn ?? console.warn)(message);
  }
}

function isCurrent(sources: readonly CachedSourceVersion[], current: ReadonlyMap<string, string>): boolean {
  return sources.every((source) => current.get(source.name) === source.versionId);
}
