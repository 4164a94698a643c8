/**
 * Where a signed-in user's wait goes during an ingest (bench:ingest-load --trace): the event loop's
 * delay (perf_hooks.monitorEventLoopDelay) and, for embedded PGlite, every statement that held the
 * thread past a threshold. PGlite executes each protocol message synchronously inside the server's
 * thread (execProtocolRawSync), so a statement's run time is event-loop time nobody else gets.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { Database } from '../../db/client';

interface SyncProtocol {
  execProtocolRawSync(message: Uint8Array): unknown;
}

export interface StallTrace {
  /** Event-loop delay percentiles in ms, and the statements that ran ≥ thresholdMs (slowest first, grouped by SQL). */
  stop(): { readonly loop: { p50: number; p99: number; max: number }; readonly statements: readonly { sql: string; count: number; totalMs: number; maxMs: number }[] };
}

/** The SQL of a Parse ('P') or simple Query ('Q') message; undefined for Bind/Execute/Sync. */
function sqlOf(message: Uint8Array): string | undefined {
  const type = String.fromCharCode(message[0] ?? 0);
  if (type !== 'P' && type !== 'Q') return undefined;
  let start = 5;
  if (type === 'P') while (message[start] !== 0 && start < message.length) start += 1;
  if (type === 'P') start += 1;
  let end = start;
  while (message[end] !== 0 && end < message.length) end += 1;
  return Buffer.from(message.subarray(start, end)).toString('utf8').replace(/\s+/g, ' ').slice(0, 160);
}

export function traceStalls(database: Database, thresholdMs = 50): StallTrace {
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  const client = (database.db as unknown as { $client?: SyncProtocol }).$client;
  const original = client?.execProtocolRawSync;
  const slow = new Map<string, { count: number; totalMs: number; maxMs: number }>();
  let lastSql = '(unknown)';
  if (client && original) {
    client.execProtocolRawSync = function traced(this: SyncProtocol, message: Uint8Array) {
      lastSql = sqlOf(message) ?? lastSql;
      const started = performance.now();
      try {
        return original.call(this, message);
      } finally {
        const ms = performance.now() - started;
        if (ms >= thresholdMs) {
          const entry = slow.get(lastSql) ?? { count: 0, totalMs: 0, maxMs: 0 };
          slow.set(lastSql, { count: entry.count + 1, totalMs: entry.totalMs + ms, maxMs: Math.max(entry.maxMs, ms) });
        }
      }
    };
  }
  return {
    stop() {
      histogram.disable();
      if (client && original) client.execProtocolRawSync = original;
      const ms = (nanoseconds: number) => nanoseconds / 1e6;
      return {
        loop: { p50: ms(histogram.percentile(50)), p99: ms(histogram.percentile(99)), max: ms(histogram.max) },
        statements: [...slow].map(([text, entry]) => ({ sql: text, ...entry })).sort((left, right) => right.totalMs - left.totalMs),
      };
    },
  };
}
