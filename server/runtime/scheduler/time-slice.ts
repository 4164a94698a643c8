/**
 * Cooperative yielding for long synchronous work on the server's one thread (parsing 50,000 files,
 * fitting commits, extracting facts, entities and identifiers from every chunk). The slice is a time
 * budget, not an item count: an item's cost varies a hundredfold (a 0.3 KB note against a 64 KiB
 * commit) and with the machine's load, so "every 25 files" was ~25 ms on an idle core and over
 * 2 s in bench:ingest-load on a busy one, all of it added to a signed-in user's wait.
 */

import { backgroundTurn, isBackground } from './request-priority';

/** Gives the event loop one turn: timers, I/O callbacks and requests queued meanwhile run first. */
export const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * 15 ms of work between two turns: well under the 100 ms a person notices, while the cost of a
 * turn (~0.05 ms) stays below 1 % of the work.
 */
export const DEFAULT_SLICE_MS = 15;

export class TimeSlice {
  private started: number;

  /** `now` is the clock (tests pass their own). */
  constructor(
    private readonly budgetMs: number = DEFAULT_SLICE_MS,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.started = now();
  }

  /**
   * Call between two items: yields a turn once this slice has run past its budget, else returns at
   * once. Background work (an ingest) also waits there for the requests in flight (request-priority.ts).
   */
  async yieldIfSpent(): Promise<void> {
    if (this.now() - this.started < this.budgetMs) return;
    await (isBackground() ? backgroundTurn() : nextTurn());
    this.started = this.now();
  }
}
