import { sql } from 'drizzle-orm';
import type { Database } from '../../../db/client';
import { sourceVersions } from '../../../db/schema';
import type { IngestChunk, IngestResult } from '../../runtime/contracts/store';
import { eq } from 'drizzle-orm';
import { insertChunks } from './chunk-insert';
import { StatementPacer } from './statement-pacer';
import { type IngestedSource, makeVersionCurrent, openVersion } from './version-open';

/**
 * Writes a large source version as many short transactions instead of one long one (issue 13,
 * point 5). PGlite has one connection and runs in the server's thread: a 9,000-file ingest in one
 * transaction stalled every request, sign-in included, for 10.9 s. Here each statement touches at
 * most `batchRows` rows and the event loop turns between two of them, so a sign-in waits for one
 * batch at most. Batches are `batchRows` at most and follow a time budget below that
 * (statement-pacer.ts): 200 rows a flip took 126 ms with the machine loaded, the staging inserts more.
 *
 * Rows are staged with is_current = false (invisible to every retriever, and outside the partial
 * bm25 index, so staging costs no tokenisation), then flipped on batch by batch, then the old
 * version's rows flipped off. Only during the flip may a reader see part of the new version (beside
 * the whole old one: some passages twice, none missing); one transaction would avoid that window
 * only by holding the database for the whole load. A failure anywhere deletes the staged rows and
 * the version row and restores the old rows, so the source stays as it was.
 */

type Limit = ReturnType<typeof sql.raw>;

/** Runs `statement` (an UPDATE/DELETE … RETURNING 1 on at most `limit` rows, sized by the pacer) until it touches none. */
async function repeatUntilDone(database: Database, pacer: StatementPacer, statement: (limit: Limit) => ReturnType<typeof sql>, signal?: AbortSignal): Promise<void> {
  for (let touched = 1; touched > 0; ) {
    signal?.throwIfAborted();
    touched = await pacer.run(async (rows) => {
      const [row] = await database.query<{ count: number }>(sql`with touched as (${statement(sql.raw(String(rows)))}) select count(*)::int as count from touched`);
      return Number(row?.count ?? 0);
    });
  }
}

export interface BatchedLoadOptions {
  readonly batchRows: number;
  readonly inlineSearchVector: boolean;
  /** Checked between batches until the version is made current: a stop undoes the load like a failure. */
  readonly signal?: AbortSignal;
}

export async function loadVersionInBatches(database: Database, source: IngestedSource, ingestChunks: readonly IngestChunk[], contentHash: string, options: BatchedLoadOptions): Promise<IngestResult> {
  const documents = new Set(ingestChunks.map((chunk) => chunk.uri)).size;
  const opened = await database.db.transaction((tx) => openVersion(tx, source, ingestChunks, contentHash));
  if (opened.unchanged) return opened.unchanged;
  const { sourceId, versionId, previousVersionId } = opened;
  const pacer = new StatementPacer({ initialRows: options.batchRows, maxRows: options.batchRows });
  try {
    const { signal } = options;
    for (let start = 0; start < ingestChunks.length; ) {
      signal?.throwIfAborted();
      await pacer.run(async (rows) => {
        const slice = ingestChunks.slice(start, start + rows);
        await database.db.transaction((tx) => insertChunks(tx, sourceId, versionId, slice, { inlineSearchVector: options.inlineSearchVector, current: false }));
        start += slice.length;
      });
    }
    await repeatUntilDone(database, pacer, (limit) => sql`update chunks set is_current = true where id in (select id from chunks where version_id = ${versionId} and not is_current limit ${limit}) returning 1`, signal);
    await repeatUntilDone(database, pacer, (limit) => sql`update chunks set is_current = false where id in (select id from chunks where source_id = ${sourceId} and is_current and version_id <> ${versionId} limit ${limit}) returning 1`, signal);
    signal?.throwIfAborted();
    await database.db.transaction((tx) => makeVersionCurrent(tx, source, opened));
  } catch (error) {
    await discardVersion(database, pacer, sourceId, versionId, previousVersionId).catch((cleanup: unknown) => {
      console.error(`[context-runtime] undoing the failed ingest of ${source.name}: ${cleanup instanceof Error ? cleanup.message : String(cleanup)}`);
    });
    throw error;
  }
  return { source: source.name, versionId, changed: true, documents, chunks: ingestChunks.length };
}

async function discardVersion(database: Database, pacer: StatementPacer, sourceId: string, versionId: string, previousVersionId: string | undefined): Promise<void> {
  if (previousVersionId) {
    await repeatUntilDone(database, pacer, (limit) => sql`update chunks set is_current = true where id in (select id from chunks where version_id = ${previousVersionId} and not is_current limit ${limit}) returning 1`);
  }
  await repeatUntilDone(database, pacer, (limit) => sql`delete from chunks where id in (select id from chunks where version_id = ${versionId} limit ${limit}) returning 1`);
  await database.db.delete(sourceVersions).where(eq(sourceVersions.id, versionId));
  // A source created by this failed ingest keeps no row pointing at nothing.
  await database.query(sql`delete from sources where id = ${sourceId} and current_version_id is null and not exists (select 1 from source_versions where source_id = ${sourceId})`);
}
