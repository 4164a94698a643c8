/**
 * The model-context cache's store in process: runtimes without a database, and the unit tests.
 * Same semantics as server/adapters/db/pg-model-cache-store.ts (the shared conformance suite,
 * model-cache-store-conformance.ts, runs over both).
 */
import { MODEL_CACHE_STORE_CONTRACT, type ModelCacheEntry, type ModelCacheStorePlugin, type ModelCacheTally } from '../contracts/model-cache';

export class MemoryModelCacheStore implements ModelCacheStorePlugin {
  readonly contract = MODEL_CACHE_STORE_CONTRACT;
  private readonly entries = new Map<string, ModelCacheEntry>();
  private readonly counts = new Map<string, ModelCacheTally>();

  async lookup(key: string, now: Date): Promise<ModelCacheEntry | undefined> {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (Date.parse(entry.expiresAt) <= now.getTime()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry;
  }

  async save(entry: ModelCacheEntry): Promise<void> {
    this.entries.set(entry.key, entry);
  }

  async invalidateSource(sourceName: string): Promise<number> {
    let dropped = 0;
    for (const [key, entry] of this.entries) {
      if (!entry.sources.some((source) => source.name === sourceName)) continue;
      this.entries.delete(key);
      dropped++;
    }
    return dropped;
  }

  async recordLookup(modelId: string, intentClass: string, hit: boolean): Promise<void> {
    const id = `${modelId}\u0000${intentClass}`;
    const known = this.counts.get(id) ?? { modelId, intentClass, lookups: 0, hits: 0 };
    this.counts.set(id, { ...known, lookups: known.lookups + 1, hits: known.hits + (hit ? 1 : 0) });
  }

  async tallies(): Promise<readonly ModelCacheTally[]> {
    return [...this.counts.values()];
  }
}
