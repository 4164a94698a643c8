/**
 * Work a request need not wait for (issue 16 point 5): the plan cache's row write and its
 * near-miss diagnosis. bench:plan-overhead measured them as most of a plan-cache miss (s23:
 * upsert of the compact EXPLAIN 35.8 ms, the diagnosis's two vector scans 23.8 ms, p50 under
 * load), while the plan itself is ready after ~2 ms. Tasks run one at a time, in order, after
 * `delayMs` (so the request that queued them has moved on: PGlite runs queries one at a time, and
 * a write started at once would sit in front of that request's own retrieval) or as soon as
 * `batch` are pending: a caller planning in a tight loop (a bench, a batch script) resolves its
 * awaits as microtasks and never lets a timer fire, so the timer alone starved the queue (every
 * write dropped, 64 EXPLAINs held in memory; seen on bench:plan-overhead). They are bounded:
 * past `limit` pending tasks a new one is dropped and counted rather than letting memory grow
 * (a dropped write costs a cold plan next time, nothing worse). Failures are logged and counted;
 * `flush()` waits for everything queued (close and stats call it).
 */

export interface WriteBehindCounts {
  readonly queued: number;
  readonly done: number;
  readonly failed: number;
  readonly dropped: number;
  readonly pending: number;
}

export interface WriteBehindOptions {
  /** Pending tasks kept at most (default 64). */
  readonly limit?: number;
  /** Wait before draining (default 20 ms): the request that queued the task runs first. */
  readonly delayMs?: number;
  /** Pending tasks that start a drain at once, without waiting for the timer (default 8). */
  readonly batch?: number;
  /** Where a failed task is reported (default console.warn). */
  readonly warn?: (message: string) => void;
}

interface Task {
  readonly label: string;
  readonly run: () => Promise<void>;
}

export class WriteBehindQueue {
  private readonly tasks: Task[] = [];
  private draining?: Promise<void>;
  private timer?: ReturnType<typeof setTimeout>;
  private counts = { queued: 0, done: 0, failed: 0, dropped: 0 };

  constructor(private readonly options: WriteBehindOptions = {}) {}

  /** Queues `run`; false when the queue is full and the task was dropped. */
  enqueue(label: string, run: () => Promise<void>): boolean {
    if (this.tasks.length >= (this.options.limit ?? 64)) {
      this.counts.dropped++;
      return false;
    }
    this.tasks.push({ label, run });
    this.counts.queued++;
    if (this.tasks.length >= (this.options.batch ?? 8) && !this.draining) {
      this.cancelTimer();
      void this.drain();
    } else this.schedule();
    return true;
  }

  /** Resolves once every task queued so far has run (or failed). */
  async flush(): Promise<void> {
    this.cancelTimer();
    while (this.tasks.length > 0 || this.draining) await (this.draining ?? this.drain());
  }

  get stats(): WriteBehindCounts {
    return { ...this.counts, pending: this.tasks.length };
  }

  private cancelTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private schedule(): void {
    if (this.timer || this.draining) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.drain();
    }, this.options.delayMs ?? 20);
    // A pending write must not keep a CLI process alive: close() flushes it.
    this.timer.unref?.();
  }

  private drain(): Promise<void> {
    this.draining ??= (async () => {
      try {
        for (let task = this.tasks.shift(); task; task = this.tasks.shift()) {
          try {
            await task.run();
            this.counts.done++;
          } catch (error) {
            this.counts.failed++;
            (this.options.warn ?? console.warn)(`[plan-cache] ${task.label} failed (the request was answered; the next one plans cold): ${error instanceof Error ? error.message : String(error)}`);
          }
        }
      } finally {
        this.draining = undefined;
      }
    })();
    return this.draining;
  }
}
