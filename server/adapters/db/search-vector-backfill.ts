/**
 * Fills chunks.search_vector where ingest left it empty (pg_textsearch installed: the bm25 index is
 * the lexical method, so ingest runs the english parser once, for it). The stored vector serves the
 * reranker's features and the full-text fallback, so it is derived after ingest, beside the
 * embeddings and the graph, in batches that keep each statement short.
 */
import { sql } from 'drizzle-orm';
import type { Database } from '../../../db/client';
import { type DeadRowReport, reclaimDeadRows } from './dead-row-reclaim';

/**
 * Rows per UPDATE: ~0.3 ms of parsing each on PGlite (plus the bm25 entry the new row version
 * gets), so ~0.2 s a statement on an idle core; the event loop turns between two, so a backfill
 * after a large ingest does not hold the database while someone signs in.
 */
const BACKFILL_BATCH_ROWS = 500;

export interface SearchVectorBackfillReport {
  readonly index: 'search_vector';
  readonly chunks: number;
  readonly milliseconds: number;
  /** Each filled row left a dead one (and a bm25 index entry) behind; reclaimed here on PGlite. */
  readonly deadRows?: DeadRowReport;
}

export async function backfillSearchVectors(database: Database): Promise<SearchVectorBackfillReport> {
  const started = performance.now();
  let filled = 0;
  for (;;) {
    const rows = await database.query<{ id: string }>(sql`
      update chunks set search_vector = to_tsvector('english'::regconfig, search_text)
      where id in (select id from chunks where search_vector is null limit ${sql.raw(String(BACKFILL_BATCH_ROWS))})
      returning id`);
    filled += rows.length;
    if (rows.length < BACKFILL_BATCH_ROWS) break;
    await new Promise((resolve) => setImmediate(resolve));
  }
  const deadRows = filled > 0 ? await reclaimDeadRows(database, 'chunks') : undefined;
  return Object.freeze({ index: 'search_vector', chunks: filled, milliseconds: performance.now() - started, ...(deadRows ? { deadRows } : {}) });
}
