/**
 * Requests before background work on embedded PGlite's one connection (issue 13). PGlite queues
 * every statement on one mutex, first come first served, so a signed-in user's page — several
 * statements one after another — waited behind one ingest statement per step of its own.
 * Background work (an ingest and the indexes built after it) runs inside `runInBackground`; each of
 * its statements and transactions starts only when no request is in flight — a request statement
 * running or queued, or a whole request marked with `asRequest` (server/runtime/scheduler/
 * request-priority.ts) — so a request waits for at most the one background statement already
 * started (kept short by statement-pacer.ts). A background statement is held at most `maxWaitMs`:
 * a steady stream of requests slows an ingest, it never stops it.
 */
import { asRequest, backgroundTurn, BACKGROUND_MAX_WAIT_MS, isBackground, requestsInFlight, runInBackground } from '../server/runtime/scheduler/request-priority';

export class ForegroundFirst {
  constructor(private readonly maxWaitMs = BACKGROUND_MAX_WAIT_MS) {}

  /** Runs `work` (and everything it starts) as background work. */
  runInBackground<T>(work: () => Promise<T>): Promise<T> {
    return runInBackground(work);
  }

  /** Requests in flight now, statements included (tests and the bench read it). */
  get foreground(): number {
    return requestsInFlight();
  }

  /** Wraps one entry point of the client (query, exec, transaction); statements inside a transaction pass through it once. */
  wrap<Args extends unknown[], Result>(call: (...args: Args) => Promise<Result>): (...args: Args) => Promise<Result> {
    return async (...args: Args) => {
      if (isBackground()) {
        await backgroundTurn(this.maxWaitMs);
        return call(...args);
      }
      return asRequest(() => call(...args));
    };
  }
}
