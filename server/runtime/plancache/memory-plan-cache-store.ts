/**
 * In-process persistence for the semantic plan cache: runtimes without a database and the
 * property tests (thousands of generated cases, where a PGlite round trip per case would not fit).
 * Same semantics as server/adapters/db/pg-plan-cache-store.ts without pgvector: ranking in process.
 */
import type { PlanCacheCounts, PlanCacheRecord, PlanCacheStats, PlanCacheStorePlugin } from '../contracts/plan-cache';

export class MemoryPlanCacheStore implements PlanCacheStorePlugin {
  readonly vectorSearch = false;
  private readonly live = new Map<string, PlanCacheRecord>();
  private retired: PlanCacheRecord[] = [];
  private readonly minutes = new Map<number, PlanCacheCounts>();
  private retirements = 0;
  /** Upserts and retirements so far: the live version. */
  private writes = 0;

  async candidates(exactKey: string, _vector: Float32Array, limit: number): Promise<readonly PlanCacheRecord[]> {
    return [...this.live.values()].filter((record) => record.exactKey === exactKey).slice(-limit);
  }

  async nearest(embedderId: string, _vector: Float32Array, limit: number): Promise<readonly PlanCacheRecord[]> {
    // Callers rank by similarity themselves; the most recent records stand in for "nearest".
    return [...this.live.values(), ...this.retired].filter((record) => record.embedderId === embedderId).slice(-limit * 8);
  }

  async upsert(record: PlanCacheRecord): Promise<void> {
    this.live.delete(record.id);
    // Kept as a row would be: the payload read back from its JSON text when the cache wrote that.
    const { payloadJson, ...kept } = record;
    this.live.set(record.id, payloadJson === undefined ? kept : { ...kept, payload: JSON.parse(payloadJson) as unknown });
    this.writes++;
  }

  async addHits(hits: ReadonlyMap<string, { readonly count: number; readonly at: Date }>): Promise<void> {
    for (const [id, { count }] of hits) {
      const record = this.live.get(id);
      if (record) this.live.set(id, { ...record, hits: record.hits + count });
    }
  }

  async retire(scope: { readonly sourceName?: string; readonly all?: boolean }, reason: string, at: Date): Promise<number> {
    let count = 0;
    for (const record of [...this.live.values()]) {
      if (!scope.all && !(scope.sourceName !== undefined && record.sourceNames.includes(scope.sourceName))) continue;
      this.live.delete(record.id);
      this.retired.push({ ...record, retiredAt: at, retiredReason: reason });
      count++;
    }
    this.retired = this.retired.slice(-1000);
    if (count > 0) {
      this.retirements++;
      this.writes++;
    }
    return count;
  }

  async generation(): Promise<string> {
    return String(this.retirements);
  }

  async liveVersion(): Promise<string> {
    return `${this.writes}:${this.live.size}`;
  }

  async liveExactKeys(embedderId: string): Promise<readonly string[]> {
    return [...new Set([...this.live.values()].filter((record) => record.embedderId === embedderId).map((record) => record.exactKey))];
  }

  async addCounts(bucketStart: Date, counts: PlanCacheCounts): Promise<void> {
    const current = this.minutes.get(bucketStart.getTime());
    if (!current) {
      this.minutes.set(bucketStart.getTime(), { ...counts, byReason: { ...counts.byReason } });
      return;
    }
    const byReason = { ...current.byReason };
    for (const [reason, count] of Object.entries(counts.byReason)) byReason[reason] = (byReason[reason] ?? 0) + count;
    this.minutes.set(bucketStart.getTime(), {
      lookups: current.lookups + counts.lookups,
      hits: current.hits + counts.hits,
      nearMisses: current.nearMisses + counts.nearMisses,
      misses: current.misses + counts.misses,
      byReason,
    });
  }

  async counts(since: Date, until: Date): Promise<readonly (PlanCacheCounts & { readonly start: Date })[]> {
    return [...this.minutes.entries()]
      .filter(([start]) => start >= since.getTime() && start < until.getTime())
      .sort(([left], [right]) => left - right)
      .map(([start, counts]) => ({ ...counts, start: new Date(start) }));
  }

  async entryCounts(now: Date): Promise<PlanCacheStats['entries']> {
    const expired = [...this.live.values()].filter((record) => record.expiresAt && record.expiresAt <= now).length;
    return { live: this.live.size - expired, expired, retired: this.retired.length };
  }
}
