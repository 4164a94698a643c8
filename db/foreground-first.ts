/**
 * Requests before background work on embedded PGlite's one connection (issue 13). PGlite queues
 * every statement on one mutex, first come first served, so a signed-in user's page — several
 * statements one after another — waited behind one ingest statement per step of its own.
 * Background work (an ingest and the indexes built after it) runs inside `runInBackground`; each of
 * its statements and transactions starts only when no request's statement is running or queued, so
 * a request waits for at most the one background statement already started (kept short by
 * statement-pacer.ts). A background statement is held at most `maxWaitMs`: a steady stream of
 * requests slows an ingest, it never stops it.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

export class ForegroundFirst {
  private readonly background = new AsyncLocalStorage<true>();
  private inFlight = 0;
  private waiting: (() => void)[] = [];

  constructor(private readonly maxWaitMs = 1000) {}

  /** Runs `work` (and everything it starts) as background work. */
  runInBackground<T>(work: () => Promise<T>): Promise<T> {
    return this.background.run(true, work);
  }

  /** Foreground statements running or queued now (tests and the bench read it). */
  get foreground(): number {
    return this.inFlight;
  }

  /** Wraps one entry point of the client (query, exec, transaction); statements inside a transaction pass through it once. */
  wrap<Args extends unknown[], Result>(call: (...args: Args) => Promise<Result>): (...args: Args) => Promise<Result> {
    return async (...args: Args) => {
      if (this.background.getStore()) {
        await this.backgroundTurn();
        return call(...args);
      }
      this.inFlight += 1;
      try {
        return await call(...args);
      } finally {
        this.inFlight -= 1;
        if (this.inFlight === 0) this.wake();
      }
    };
  }

  private async backgroundTurn(): Promise<void> {
    const deadline = performance.now() + this.maxWaitMs;
    while (this.inFlight > 0) {
      const remaining = deadline - performance.now();
      if (remaining <= 0) return;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, remaining);
        this.waiting.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
      // A request's next statement follows its last one within a turn (its own continuations): it goes first.
      await nextTurn();
    }
  }

  private wake(): void {
    const waiting = this.waiting;
    this.waiting = [];
    for (const resume of waiting) resume();
  }
}
