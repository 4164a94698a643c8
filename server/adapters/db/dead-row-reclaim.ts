/**
 * VACUUM for the embedded database, which has no autovacuum (PGlite is one single-user backend).
 *
 * Why it matters: every UPDATE of a chunk (the search-vector backfill rewrites each new row once;
 * a new version flips the old rows' is_current) leaves a dead row behind, and the bm25 index keeps
 * an entry for each one. Query time grows with those entries: on SciFact after the backfill
 * (5,183 live, 5,183 dead rows) bm25 top-20 took 2.3 ms p50; after VACUUM 1.34 ms (the same
 * ranking). So the pass that writes the dead rows reclaims them, with autovacuum's own trigger
 * (dead rows above 50 + 20 % of live rows), so small ingests do not pay a full-table VACUUM each.
 *
 * A PostgreSQL server runs autovacuum with that rule itself: nothing is done there.
 *
 * VACUUM is one statement, and PGlite runs it on the server's thread: 1,190 ms for ~3,700 chunks in
 * bench:ingest-load, tens of seconds after a 50,000-file ingest, with every request (sign-in
 * included) waiting. While requests are served, a table past VACUUM_WHILE_SERVING_MAX_ROWS keeps its
 * dead rows (slightly slower bm25, the same ranking) until the next start reclaims them before serving.
 */
import { sql } from 'drizzle-orm';
import type { Database } from '../../../db/client';

/** autovacuum_vacuum_threshold and autovacuum_vacuum_scale_factor, PostgreSQL's defaults. */
const VACUUM_THRESHOLD_ROWS = 50;
const VACUUM_SCALE_FACTOR = 0.2;

/** Tables whose dead rows slow the retrievers; a fixed list, so no name is ever spliced from input. */
export type ReclaimableTable = 'chunks';

export interface DeadRowReport {
  readonly table: ReclaimableTable;
  readonly liveRows: number;
  readonly deadRows: number;
  readonly vacuumed: boolean;
  /** Why a VACUUM the rule called for was left for the next start. */
  readonly deferred?: string;
  readonly milliseconds: number;
}

/** Live rows up to which a VACUUM is short enough to run while serving (~0.3 s on a loaded machine). */
export const VACUUM_WHILE_SERVING_MAX_ROWS = 1000;

export interface ReclaimOptions {
  /** Leave the VACUUM for later when the table holds more live rows than this (unbounded by default). */
  readonly maxLiveRows?: number;
}

export const needsVacuum = (liveRows: number, deadRows: number): boolean => deadRows > VACUUM_THRESHOLD_ROWS + VACUUM_SCALE_FACTOR * liveRows;

/** Undefined on a server (autovacuum's job). Must not run inside a transaction: VACUUM refuses to. */
export async function reclaimDeadRows(database: Database, table: ReclaimableTable, options: ReclaimOptions = {}): Promise<DeadRowReport | undefined> {
  if (database.driver !== 'pglite') return undefined;
  const started = performance.now();
  // Statistics reach pg_stat_* lazily (about a second after the writing statement); flush now.
  await database.query(sql`select pg_stat_force_next_flush()`);
  const [counts] = await database.query<{ live: number | string | null; dead: number | string | null }>(
    sql`select n_live_tup as live, n_dead_tup as dead from pg_stat_user_tables where relname = ${table}`,
  );
  const liveRows = Number(counts?.live ?? 0);
  const deadRows = Number(counts?.dead ?? 0);
  const due = needsVacuum(liveRows, deadRows);
  const tooLong = options.maxLiveRows !== undefined && liveRows > options.maxLiveRows;
  const vacuumed = due && !tooLong;
  if (vacuumed) await database.exec(`vacuum ${table}`);
  const deferred = due && tooLong ? `${liveRows} live rows: VACUUM would hold the embedded database while requests are served; the next start runs it` : undefined;
  return Object.freeze({ table, liveRows, deadRows, vacuumed, ...(deferred ? { deferred } : {}), milliseconds: performance.now() - started });
}
