/**
 * Where a signed-in user's wait goes during an ingest (bench:ingest-load --trace): the event loop's
 * delay (perf_hooks.monitorEventLoopDelay), every statement that held the thread past a threshold,
 * and the longest stalls themselves. PGlite executes each protocol message synchronously inside the
 * server's thread (execProtocolRawSync), so a statement's run time is event-loop time nobody else gets.
 *
 * A stall is a gap between two ticks of a 20 ms heartbeat. Each one is split into the time PGlite's
 * statements ran inside it and the rest (JavaScript, garbage collection, or no core to run on): the
 * 92.5 s stall of a 9,000-file run was by no traced statement, and the percentile alone could not
 * say what held the thread.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { Database } from '../../db/client';

interface SyncProtocol {
  execProtocolRawSync(message: Uint8Array): unknown;
}

/** One event-loop stall: when (seconds since the trace started), how long, how much of it was statements. */
export interface Stall {
  readonly atSeconds: number;
  readonly ms: number;
  readonly statementMs: number;
  readonly statements: number;
  /** The longest statement inside the stall, or the last one before it when none ran inside. */
  readonly sql: string;
  /** Process CPU time (all threads) during the stall: well below `ms` means the process waited for a core. */
  readonly cpuMs: number;
}

export interface StallTrace {
  /** Event-loop delay percentiles in ms, the statements that ran ≥ thresholdMs (slowest first, grouped by SQL), the longest stalls. */
  stop(): {
    readonly loop: { p50: number; p99: number; max: number };
    readonly statements: readonly { sql: string; count: number; totalMs: number; maxMs: number }[];
    readonly stalls: readonly Stall[];
  };
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

const HEARTBEAT_MS = 20;
/** Stalls kept (the longest): enough to see whether one cause repeats. */
const KEPT_STALLS = 8;
/** A gap between heartbeats this long is a stall worth naming. */
const STALL_FROM_MS = 200;

const cpuMs = (): number => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

export function traceStalls(database: Database, thresholdMs = 50): StallTrace {
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  const client = (database.db as unknown as { $client?: SyncProtocol }).$client;
  const original = client?.execProtocolRawSync;
  const slow = new Map<string, { count: number; totalMs: number; maxMs: number }>();
  let lastSql = '(unknown)';
  // Statements since the last heartbeat: their summed time, count and the longest.
  let window = { statementMs: 0, statements: 0, longestMs: 0, longestSql: '' };
  if (client && original) {
    client.execProtocolRawSync = function traced(this: SyncProtocol, message: Uint8Array) {
      lastSql = sqlOf(message) ?? lastSql;
      const started = performance.now();
      try {
        return original.call(this, message);
      } finally {
        const ms = performance.now() - started;
        window.statementMs += ms;
        window.statements += 1;
        if (ms > window.longestMs) window = { ...window, longestMs: ms, longestSql: lastSql };
        if (ms >= thresholdMs) {
          const entry = slow.get(lastSql) ?? { count: 0, totalMs: 0, maxMs: 0 };
          slow.set(lastSql, { count: entry.count + 1, totalMs: entry.totalMs + ms, maxMs: Math.max(entry.maxMs, ms) });
        }
      }
    };
  }
  const origin = performance.now();
  const stalls: Stall[] = [];
  let lastTick = origin;
  let lastCpu = cpuMs();
  let sqlBefore = lastSql;
  const heartbeat = setInterval(() => {
    const now = performance.now();
    const cpu = cpuMs();
    const gap = now - lastTick;
    if (gap >= STALL_FROM_MS) {
      stalls.push({ atSeconds: (lastTick - origin) / 1000, ms: gap, statementMs: window.statementMs, statements: window.statements, sql: window.longestSql || `(none inside; last before: ${sqlBefore})`, cpuMs: cpu - lastCpu });
      stalls.sort((left, right) => right.ms - left.ms);
      stalls.length = Math.min(stalls.length, KEPT_STALLS);
    }
    lastTick = now;
    lastCpu = cpu;
    sqlBefore = lastSql;
    window = { statementMs: 0, statements: 0, longestMs: 0, longestSql: '' };
  }, HEARTBEAT_MS);
  return {
    stop() {
      clearInterval(heartbeat);
      histogram.disable();
      if (client && original) client.execProtocolRawSync = original;
      const ms = (nanoseconds: number) => nanoseconds / 1e6;
      return {
        loop: { p50: ms(histogram.percentile(50)), p99: ms(histogram.percentile(99)), max: ms(histogram.max) },
        statements: [...slow].map(([text, entry]) => ({ sql: text, ...entry })).sort((left, right) => right.totalMs - left.totalMs),
        stalls: Object.freeze([...stalls]),
      };
    },
  };
}
