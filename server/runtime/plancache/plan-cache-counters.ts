/**
 * Lookup counters for the stats page, kept per minute in process and written to the store in
 * batches: a hit must not pay for a database write (the hit path is ~tens of microseconds).
 */
import type { PlanCacheCounts, PlanCacheStats, PlanCacheStatsBucket, PlanCacheStatsQuery, PlanCacheStorePlugin } from '../contracts/plan-cache';

const MINUTE_MS = 60_000;
/** Pending minutes or hit ids after which counters are written without waiting for the timer. */
const FLUSH_AFTER = 256;
const FLUSH_EVERY_MS = 5_000;

interface MutableCounts {
  lookups: number;
  hits: number;
  nearMisses: number;
  misses: number;
  byReason: Record<string, number>;
}

const emptyCounts = (): MutableCounts => ({ lookups: 0, hits: 0, nearMisses: 0, misses: 0, byReason: {} });

export class PlanCacheCounters {
  private pending = new Map<number, MutableCounts>();
  private pendingHits = new Map<string, { count: number; at: Date }>();
  private timer?: ReturnType<typeof setTimeout>;
  private flushing: Promise<void> = Promise.resolve();

  constructor(private readonly store: PlanCacheStorePlugin) {}

  count(at: Date, outcome: 'hit' | 'miss' | 'near_miss', reason?: string): void {
    const minute = Math.floor(at.getTime() / MINUTE_MS) * MINUTE_MS;
    let counts = this.pending.get(minute);
    if (!counts) this.pending.set(minute, (counts = emptyCounts()));
    counts.lookups++;
    if (outcome === 'hit') counts.hits++;
    else if (outcome === 'near_miss') counts.nearMisses++;
    else counts.misses++;
    if (reason) counts.byReason[reason] = (counts.byReason[reason] ?? 0) + 1;
    this.schedule();
  }

  hit(id: string, at: Date): void {
    const current = this.pendingHits.get(id);
    this.pendingHits.set(id, { count: (current?.count ?? 0) + 1, at });
    this.schedule();
  }

  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const counts = this.pending;
    const hits = this.pendingHits;
    this.pending = new Map();
    this.pendingHits = new Map();
    const write = async () => {
      for (const [minute, value] of counts) await this.store.addCounts(new Date(minute), value);
      if (hits.size > 0) await this.store.addHits(hits);
    };
    this.flushing = this.flushing.then(write, write);
    return this.flushing;
  }

  async stats(query: PlanCacheStatsQuery, threshold: number, entries: PlanCacheStats['entries']): Promise<PlanCacheStats> {
    const width = query.bucketSeconds * 1000;
    const origin = query.since.getTime();
    const buckets = new Map<number, MutableCounts>();
    const totals = emptyCounts();
    for (const row of await this.store.counts(query.since, query.until)) {
      const start = origin + Math.floor((row.start.getTime() - origin) / width) * width;
      let bucket = buckets.get(start);
      if (!bucket) buckets.set(start, (bucket = emptyCounts()));
      for (const target of [bucket, totals]) add(target, row);
    }
    const rows: PlanCacheStatsBucket[] = [...buckets.entries()]
      .sort(([left], [right]) => left - right)
      .map(([start, counts]) => ({ start: new Date(start).toISOString(), ...counts, hitRate: rate(counts) }));
    return { buckets: rows, totals: { ...totals, hitRate: rate(totals) }, entries, threshold };
  }

  private schedule(): void {
    if (this.pending.size >= FLUSH_AFTER || this.pendingHits.size >= FLUSH_AFTER) {
      void this.flush().catch(() => undefined);
      return;
    }
    if (this.timer) return;
    this.timer = setTimeout(() => void this.flush().catch(() => undefined), FLUSH_EVERY_MS);
    this.timer.unref?.();
  }
}

function add(target: MutableCounts, row: PlanCacheCounts): void {
  target.lookups += row.lookups;
  target.hits += row.hits;
  target.nearMisses += row.nearMisses;
  target.misses += row.misses;
  for (const [reason, count] of Object.entries(row.byReason)) target.byReason[reason] = (target.byReason[reason] ?? 0) + count;
}

const rate = (counts: PlanCacheCounts): number => (counts.lookups === 0 ? 0 : Math.round((counts.hits / counts.lookups) * 10_000) / 10_000);
