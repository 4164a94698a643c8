/**
 * The exact keys the plan-cache store holds live plans under, kept in process so a lookup whose
 * key no stored plan has is answered "miss" without a store round trip or an embedding (issue 16
 * point 5: on bench:retrieval a miss's bucket query waited behind the previous requests' queued
 * writes on the one embedded-database connection, most of plan()'s plan_cache stage).
 *
 * The store stays the truth. The index is a superset-or-equal of the store's keys as of its last
 * sync plus this process's own writes: `absent()` is only ever true for a key the store did not
 * hold then and this process has not written since. Another process's new plan is seen when the
 * cache's revalidation tick finds the store's live version moved (within `revalidateMs`, the same
 * bound as another process's retirements); until then that key plans cold, never wrongly.
 * A store without `liveExactKeys` (an older adapter) leaves the index unloaded: every lookup asks
 * the store, as before.
 */
import type { PlanCacheStorePlugin } from '../contracts/plan-cache';

export class LiveKeyIndex {
  private keys?: Set<string>;
  private version?: string;
  /** Keys this process wrote while a reload was in flight: the reload's read may predate them. */
  private writtenDuringReload?: Set<string>;
  private reloading?: Promise<readonly string[]>;

  constructor(
    private readonly store: PlanCacheStorePlugin,
    private readonly embedderId: string,
  ) {}

  /** Whether the store can list its keys; without it the index never answers. */
  get supported(): boolean {
    return this.store.liveExactKeys !== undefined && this.store.liveVersion !== undefined;
  }

  /** True only when the store is known not to hold a live plan under this key. */
  absent(exactKey: string): boolean {
    return this.keys !== undefined && !this.keys.has(exactKey);
  }

  /** This process stored a plan under the key (called once the store accepted the write). */
  add(exactKey: string): void {
    this.keys?.add(exactKey);
    this.writtenDuringReload?.add(exactKey);
  }

  /**
   * Re-reads the keys when the store's live version moved since the last read (or on first use),
   * and returns the keys that appeared (another process's plans): a key bucket the cache holds in
   * memory for one of them was read before that plan existed. Concurrent callers share one reload.
   * A failed read throws and leaves the index as it was (a superset of what a retirement left is
   * still safe); the next call tries again.
   */
  async sync(): Promise<readonly string[]> {
    if (!this.supported) return [];
    this.reloading ??= this.reloadIfMoved().finally(() => (this.reloading = undefined));
    return this.reloading;
  }

  /** Plans were retired (here or by another process): the next sync re-reads whatever the version says. */
  stale(): void {
    this.version = undefined;
  }

  private async reloadIfMoved(): Promise<readonly string[]> {
    // The version is read first: a write landing after it moves it again, so the next sync re-reads.
    const version = await this.store.liveVersion!();
    if (version === this.version && this.keys !== undefined) return [];
    this.writtenDuringReload = new Set();
    try {
      const loaded = new Set(await this.store.liveExactKeys!(this.embedderId));
      for (const key of this.writtenDuringReload) loaded.add(key);
      const previous = this.keys;
      this.keys = loaded;
      this.version = version;
      return previous ? [...loaded].filter((key) => !previous.has(key)) : [];
    } finally {
      this.writtenDuringReload = undefined;
    }
  }
}
