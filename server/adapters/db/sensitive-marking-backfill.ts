/**
 * Marks the chunks written before chunks.sensitive existed (drizzle/0020 adds the column empty):
 * the same detector ingest runs (chunk-insert.ts), once per row, at start-up. A content hash that
 * has not changed makes a re-ingest a no-op, so "mark on the next ingest" would leave an unchanged
 * source unmarked for ever; until this pass has run an unmarked row counts as sensitive.
 */
import { sql } from 'drizzle-orm';
import type { Database } from '../../../db/client';
import { markingOf } from './chunk-insert';
import { type DeadRowReport, reclaimDeadRows } from './dead-row-reclaim';

/** Rows read and written per statement: keyset pages, so each statement holds the database briefly. */
const MARKING_BATCH_ROWS = 500;

export interface SensitiveMarkingReport {
  /** Rows scanned (each was unmarked). */
  readonly chunks: number;
  /** Of those, rows holding personal data or secrets. */
  readonly sensitive: number;
  readonly milliseconds: number;
  readonly deadRows?: DeadRowReport;
}

export async function backfillSensitiveMarking(database: Database, batchRows = MARKING_BATCH_ROWS): Promise<SensitiveMarkingReport> {
  const started = performance.now();
  let scanned = 0;
  let sensitive = 0;
  let after = '';
  for (;;) {
    const rows = await database.query<{ id: string; title: string; body: string }>(
      sql`select id, title, body from chunks where sensitive is null and id > ${after} order by id limit ${sql.raw(String(batchRows))}`,
    );
    if (rows.length === 0) break;
    const marks = rows.map((row) => ({ id: row.id, ...markingOf({ title: row.title, text: row.body }) }));
    await database.query(sql`
      update chunks set sensitive = marks.sensitive, sensitive_kinds = marks.sensitive_kinds
      from jsonb_to_recordset(${JSON.stringify(marks)}::jsonb) as marks(id text, sensitive boolean, sensitive_kinds text[])
      where chunks.id = marks.id`);
    scanned += rows.length;
    sensitive += marks.filter((mark) => mark.sensitive).length;
    after = rows[rows.length - 1].id;
    if (rows.length < batchRows) break;
  }
  const deadRows = scanned > 0 ? await reclaimDeadRows(database, 'chunks') : undefined;
  return Object.freeze({ chunks: scanned, sensitive, milliseconds: Math.round(performance.now() - started), ...(deadRows ? { deadRows } : {}) });
}
