/**
 * Whether chunks may still lack their stored search vector, so a full-text search runs the
 * backfill only after an ingest, not before every query. Even with nothing to fill, the backfill's
 * keyset walk reads every chunk in id order to find none empty (search-vector-backfill.ts): it was
 * four statements in front of each full-text search (issue 14 point 6).
 *
 * A generation counts ingests that may have left vectors empty; a backfill that started at
 * generation g leaves every row written before it filled, so the search path skips the backfill
 * while no ingest started since. The state is this process's: an ingest by another process on the
 * same PostgreSQL server is filled by that process's own indexDerived after it commits, as before.
 */
export class PendingSearchVectors {
  /** Unknown at open (an earlier process may have stopped mid-backfill): the first search checks. */
  private generation = 1;
  private filledGeneration = 0;
  private running?: { readonly generation: number; readonly done: Promise<unknown> };

  constructor(private readonly fill: () => Promise<unknown>) {}

  /** An ingest is about to write chunks without their search vector: the next full-text search fills them first. */
  markPending(): void {
    this.generation += 1;
  }

  /** True while no ingest started since the last backfill that began after the previous one. */
  get settled(): boolean {
    return this.filledGeneration === this.generation;
  }

  /** The query path: fills only when an ingest may have left rows empty; concurrent searches share one backfill. */
  async fillIfPending(): Promise<void> {
    while (!this.settled) {
      // A backfill already running from this generation covers this search; an older one may not.
      if (this.running?.generation !== this.generation) await this.run();
      else await this.running.done;
    }
  }

  /** An unconditional backfill (after ingest, at start-up): records what it covered. */
  async run<T>(fill: () => Promise<T> = this.fill as () => Promise<T>): Promise<T> {
    const generation = this.generation;
    const done = fill();
    this.running = { generation, done };
    try {
      const result = await done;
      this.filledGeneration = Math.max(this.filledGeneration, generation);
      return result;
    } finally {
      if (this.running?.done === done) this.running = undefined;
    }
  }
}
