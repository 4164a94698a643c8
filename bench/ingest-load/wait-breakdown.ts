/**
 * Where each signed-in probe of bench:ingest-load spends its time (issue 13, point 5): late start (a
 * timer due while the event loop was held), waiting for embedded PGlite's one connection, the
 * probe's own statements, and the rest (for a sign-in, the scrypt check in libuv's threadpool and
 * the turn back to the loop). A page's statements run in parallel, so its summed wait can exceed
 * its wall time. Beside it, the event loop's delay (perf_hooks.monitorEventLoopDelay)
 * and the threadpool's queueing: a no-op threadpool job (one pbkdf2 iteration) every 100 ms, timed
 * to its callback, so file reads that fill the pool show as lag a sign-in's scrypt would wait behind.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { pbkdf2 } from 'node:crypto';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { Database } from '../../db/client';

interface SyncProtocol {
  execProtocolRawSync(message: Uint8Array): unknown;
}

/** One probe's statements: summed time waiting for the connection, and summed run time. */
interface StatementClock {
  waitMs: number;
  runMs: number;
}

/** One statement of a probe: issued when, and whether PGlite has started it yet. */
interface Call {
  readonly clock: StatementClock;
  readonly issuedAt: number;
  waiting: boolean;
}

interface Queryable extends SyncProtocol {
  query(...args: unknown[]): Promise<unknown>;
}

export interface ProbeTiming {
  readonly lateMs: number;
  readonly dbWaitMs: number;
  readonly dbRunMs: number;
  readonly restMs: number;
}

export interface WaitBreakdown {
  /** Runs one probe's `work` (everything it awaits) with its statements timed; `due` is when it should have started. */
  time(due: number, work: () => Promise<unknown>): Promise<ProbeTiming>;
  /** Event-loop delay and threadpool lag percentiles in ms; unhooks the database. */
  stop(): { readonly loop: Percentiles; readonly threadpool: Percentiles };
}

export interface Percentiles {
  readonly p50: number;
  readonly p99: number;
  readonly max: number;
}

export function percentiles(values: readonly number[]): Percentiles {
  const sorted = [...values].sort((left, right) => left - right);
  const at = (fraction: number) => sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)] ?? 0;
  return { p50: at(0.5), p99: at(0.99), max: sorted.at(-1) ?? 0 };
}

export function startWaitBreakdown(database: Database): WaitBreakdown {
  const context = new AsyncLocalStorage<StatementClock>();
  const calls = new AsyncLocalStorage<Call>();
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  const client = (database.db as unknown as { $client?: Queryable }).$client;
  const original = client?.execProtocolRawSync;
  const originalQuery = client?.query;
  if (client && original && originalQuery) {
    // Every statement a probe issues (through the foreground gate, which wraps query) is one call.
    client.query = function issued(this: Queryable, ...args: unknown[]) {
      const clock = context.getStore();
      if (!clock) return originalQuery.apply(this, args);
      return calls.run({ clock, issuedAt: performance.now(), waiting: true }, () => originalQuery.apply(this, args));
    };
    // PGlite runs a statement inside its queue's callback, which keeps the caller's async context.
    client.execProtocolRawSync = function timed(this: SyncProtocol, message: Uint8Array) {
      const call = calls.getStore();
      const started = performance.now();
      if (call?.waiting) {
        call.clock.waitMs += started - call.issuedAt;
        call.waiting = false;
      }
      try {
        return original.call(this, message);
      } finally {
        if (call) call.clock.runMs += performance.now() - started;
      }
    };
  }
  const lags: number[] = [];
  let stopped = false;
  const threadpoolTick = () => {
    if (stopped) return;
    const queued = performance.now();
    pbkdf2('x', 'y', 1, 8, 'sha256', () => {
      lags.push(performance.now() - queued);
      setTimeout(threadpoolTick, 100);
    });
  };
  threadpoolTick();
  return {
    async time(due, work) {
      const started = performance.now();
      const clock: StatementClock = { waitMs: 0, runMs: 0 };
      await context.run(clock, work);
      const total = performance.now() - due;
      const lateMs = started - due;
      return { lateMs, dbWaitMs: clock.waitMs, dbRunMs: clock.runMs, restMs: total - lateMs - clock.waitMs - clock.runMs };
    },
    stop() {
      stopped = true;
      histogram.disable();
      if (client && original && originalQuery) {
        client.execProtocolRawSync = original;
        client.query = originalQuery;
      }
      const ms = (nanoseconds: number) => nanoseconds / 1e6;
      return { loop: { p50: ms(histogram.percentile(50)), p99: ms(histogram.percentile(99)), max: ms(histogram.max) }, threadpool: percentiles(lags) };
    },
  };
}
