/**
 * Fills chunks.search_vector where ingest left it empty (pg_textsearch installed: the bm25 index is
 * the lexical method, so ingest runs the english parser once, for it). The stored vector serves the
 * reranker's features and the full-text fallback, so it is derived after ingest, beside the
 * embeddings and the graph, in batches that keep each statement short.
 */
import { sql } from 'drizzle-orm';
import type { Database } from '../../../db/client';
import { type DeadRowReport, reclaimDeadRows, VACUUM_WHILE_SERVING_MAX_ROWS } from './dead-row-reclaim';
import { StatementPacer } from './statement-pacer';

/**
 * Rows per UPDATE: ~0.3 ms of parsing each on PGlite (plus the bm25 entry the new row version
 * gets), so ~0.2 s a statement on an idle core. That fixed size took up to 1,558 ms a statement in
 * bench:ingest-load on a loaded machine, so batches start smaller and follow a time budget
 * (statement-pacer.ts), with the event loop turning between two: a backfill after a large ingest
 * does not hold the database while someone signs in. 500 stays the ceiling.
 */
const BACKFILL_BATCH_ROWS = 500;
const FIRST_BATCH_ROWS = 100;

export interface SearchVectorBackfillOptions {
  /**
   * Start-up, before anyone is served: dead rows are reclaimed whatever the table's size, also
   * those an earlier backfill left. Otherwise (after an ingest, before a full-text search) requests
   * are served meanwhile, and a VACUUM that would hold the thread for long is left for the next start.
   */
  readonly startUp?: boolean;
}

export interface SearchVectorBackfillReport {
  readonly index: 'search_vector';
  readonly chunks: number;
  readonly milliseconds: number;
  /** Each filled row left a dead one (and a bm25 index entry) behind; reclaimed here on PGlite. */
  readonly deadRows?: DeadRowReport;
}

export async function backfillSearchVectors(database: Database, options: SearchVectorBackfillOptions = {}): Promise<SearchVectorBackfillReport> {
  const started = performance.now();
  const pacer = new StatementPacer({ initialRows: FIRST_BATCH_ROWS, maxRows: BACKFILL_BATCH_ROWS });
  let filled = 0;
  // A keyset walk in id order: "where search_vector is null limit n" rescanned the filled rows
  // (live and dead) from the table's start on every batch, quadratic over a 50,000-chunk ingest.
  let after = '';
  for (let more = true; more; ) {
    more = await pacer.run(async (rows) => {
      const [batch] = await database.query<{ filled: number; last: string | null; scanned: number }>(sql`
        with picked as (select id from chunks where id > ${after} and search_vector is null order by id limit ${rows}),
        filled as (
          update chunks set search_vector = to_tsvector('english'::regconfig, search_text)
          where id in (select id from picked) returning id
        )
        select (select count(*)::int from filled) as filled, (select max(id) from picked) as last, (select count(*)::int from picked) as scanned`);
      filled += Number(batch?.filled ?? 0);
      if (!batch?.last || Number(batch.scanned) < rows) return false;
      after = batch.last;
      return true;
    });
  }
  const deadRows = filled > 0 || options.startUp ? await reclaimDeadRows(database, 'chunks', options.startUp ? {} : { maxLiveRows: VACUUM_WHILE_SERVING_MAX_ROWS }) : undefined;
  return Object.freeze({ index: 'search_vector', chunks: filled, milliseconds: performance.now() - started, ...(deadRows ? { deadRows } : {}) });
}
