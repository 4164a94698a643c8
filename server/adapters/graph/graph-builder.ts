import { sql } from 'drizzle-orm';
import type { Database } from '../../../db/client';
import { nextTurn, TimeSlice } from '../../runtime/scheduler/time-slice';
import { sha256Hex } from '../db/ids';
import { StatementPacer } from '../db/statement-pacer';
import { extractEntities } from './entity-extractor';
import { scanIdentifiers } from './identifier-scan';

export const GRAPH_INDEX = 'graph';
export const IDENTIFIER_INDEX = 'identifiers';
/** LLM OpenIE links added to a built graph (openie-indexer.ts); `openie-partial` while a version is unfinished. */
export const OPENIE_INDEX = 'openie';
export const OPENIE_PARTIAL_INDEX = 'openie-partial';

/**
 * Rows per statement (INSERT … FROM jsonb_to_recordset, DELETE, chunk page). Each is its own short
 * statement with the event loop turning between two: a 50,000-chunk version built in one
 * transaction held PGlite's one connection, and sign-in with it, for seconds (issue 13, point 5).
 * The build is still all-or-nothing for the planner: derived_index_builds is written last, so a
 * crash halfway leaves the version pending and the next build replaces what was written.
 */
const INSERT_BATCH_ROWS = 500;
const CHUNK_PAGE_ROWS = 500;
/** Insert batches start here, then follow a time budget (statement-pacer.ts) up to INSERT_BATCH_ROWS. */
const FIRST_INSERT_ROWS = 200;

export const entityIdOf = (name: string): string => `ent_${sha256Hex(`entity|${name}`).slice(0, 24)}`;

interface ChunkTextRow extends Record<string, unknown> {
  readonly id: string;
  readonly title: string;
  readonly body: string;
}

export interface DerivedIndexReport {
  readonly versionId: string;
  readonly index: string;
  readonly chunks: number;
  /** Passage–entity links (graph) or identifier occurrences (identifiers). */
  readonly items: number;
  readonly milliseconds: number;
}

/**
 * The version's chunks a page at a time (keyset on id); the extraction in `visit` is synchronous,
 * so the event loop turns on a time budget between chunks (a page's work was up to ~0.7 s loaded).
 */
async function forEachChunk(database: Database, versionId: string, visit: (chunk: ChunkTextRow) => void): Promise<number> {
  let after = '';
  let seen = 0;
  const slice = new TimeSlice();
  for (;;) {
    const page = await database.query<ChunkTextRow>(sql`select id, title, body from chunks where version_id = ${versionId} and not lookup_only and id > ${after} order by id limit ${CHUNK_PAGE_ROWS}`);
    for (const chunk of page) {
      await slice.yieldIfSpent();
      visit(chunk);
    }
    seen += page.length;
    if (page.length < CHUNK_PAGE_ROWS) return seen;
    after = page[page.length - 1].id;
    await nextTurn();
  }
}

async function insertBatches(database: Database, rows: readonly object[], insert: (payload: string) => ReturnType<typeof sql>): Promise<void> {
  const pacer = new StatementPacer({ initialRows: FIRST_INSERT_ROWS, maxRows: INSERT_BATCH_ROWS });
  for (let start = 0; start < rows.length; ) {
    await pacer.run(async (size) => {
      await database.query(insert(JSON.stringify(rows.slice(start, start + size))));
      start += size;
    });
  }
}

/** Deletes `table`'s rows of one version, INSERT_BATCH_ROWS at a time (the table name is one of ours, never input). */
async function deleteVersionRows(database: Database, table: 'graph_passage_entities' | 'graph_entity_relations' | 'identifiers', versionId: string): Promise<void> {
  for (;;) {
    const [row] = await database.query<{ count: number }>(sql`
      with gone as (delete from ${sql.identifier(table)} where ctid in (select ctid from ${sql.identifier(table)} where version_id = ${versionId} limit ${INSERT_BATCH_ROWS}) returning 1)
      select count(*)::int as count from gone`);
    if (Number(row?.count ?? 0) < INSERT_BATCH_ROWS) return;
    await nextTurn();
  }
}

const markBuilt = (database: Database, versionId: string, index: string, items: number) =>
  database.query(sql`
    insert into derived_index_builds (version_id, index_name, items) values (${versionId}, ${index}, ${items})
    on conflict (version_id, index_name) do update set items = excluded.items, built_at = now()`);

/**
 * The entity–passage graph of one source version (HippoRAG's offline indexing, with proper-noun
 * spans instead of LLM OpenIE; with a model configured, openie-indexer.ts adds OpenIE's links).
 * Idempotent: the version's edges are replaced, in batches (see INSERT_BATCH_ROWS).
 * Entities are shared across sources and versions, keyed by normalised name, so a name mentioned
 * in a runbook and in a log is one node that bridges them.
 */
export async function buildGraphForVersion(database: Database, versionId: string): Promise<DerivedIndexReport> {
  const started = performance.now();
  const entities = new Map<string, string>();
  const links: { chunk_id: string; entity_id: string; role: string; weight: number }[] = [];
  const chunkCount = await forEachChunk(database, versionId, (chunk) => {
    for (const mention of extractEntities(chunk.title, chunk.body)) {
      let id = entities.get(mention.name);
      if (id === undefined) entities.set(mention.name, (id = entityIdOf(mention.name)));
      links.push({ chunk_id: chunk.id, entity_id: id, role: mention.role, weight: mention.count });
    }
  });
  await deleteVersionRows(database, 'graph_passage_entities', versionId);
  // OpenIE's relations go with its links; openie-indexer.ts re-extracts a rebuilt version.
  await deleteVersionRows(database, 'graph_entity_relations', versionId);
  const entityRows = [...entities].map(([name, id]) => ({ id, name }));
  await insertBatches(database, entityRows, (payload) => sql`
    insert into graph_entities (id, name)
    select id, name from jsonb_to_recordset(${payload}::jsonb) as row_set(id text, name text)
    on conflict do nothing`);
  await insertBatches(database, links, (payload) => sql`
    insert into graph_passage_entities (chunk_id, entity_id, version_id, role, weight)
    select chunk_id, entity_id, ${versionId}, role, weight
    from jsonb_to_recordset(${payload}::jsonb) as row_set(chunk_id text, entity_id text, role text, weight real)`);
  await markBuilt(database, versionId, GRAPH_INDEX, links.length);
  return Object.freeze({ versionId, index: GRAPH_INDEX, chunks: chunkCount, items: links.length, milliseconds: performance.now() - started });
}

/** Identifiers of one source version for the exact retriever; idempotent like the graph. */
export async function indexIdentifiers(database: Database, versionId: string): Promise<DerivedIndexReport> {
  const started = performance.now();
  const rows: { chunk_id: string; value: string; kind: string }[] = [];
  const chunkCount = await forEachChunk(database, versionId, (chunk) => {
    const seen = new Set<string>();
    for (const identifier of [...scanIdentifiers(chunk.title), ...scanIdentifiers(chunk.body)]) {
      if (seen.has(identifier.value)) continue;
      seen.add(identifier.value);
      rows.push({ chunk_id: chunk.id, value: identifier.value, kind: identifier.kind });
    }
  });
  await deleteVersionRows(database, 'identifiers', versionId);
  await insertBatches(database, rows, (payload) => sql`
    insert into identifiers (value, kind, chunk_id, version_id)
    select value, kind, chunk_id, ${versionId}
    from jsonb_to_recordset(${payload}::jsonb) as row_set(chunk_id text, value text, kind text)`);
  await markBuilt(database, versionId, IDENTIFIER_INDEX, rows.length);
  return Object.freeze({ versionId, index: IDENTIFIER_INDEX, chunks: chunkCount, items: rows.length, milliseconds: performance.now() - started });
}

/**
 * Builds both indexes for every current source version that lacks them: call after each ingest
 * and once at start-up (a crash between ingest and build leaves nothing missing for long).
 */
export async function buildPendingDerivedIndexes(database: Database): Promise<readonly DerivedIndexReport[]> {
  const pending = await database.query<{ version_id: string; index_name: string }>(sql`
    select sources.current_version_id as version_id, wanted.index_name
    from sources cross join (values (${GRAPH_INDEX}), (${IDENTIFIER_INDEX})) as wanted(index_name)
    where sources.current_version_id is not null
      and not exists (select 1 from derived_index_builds built
                      where built.version_id = sources.current_version_id and built.index_name = wanted.index_name)
    order by 1, 2`);
  const reports: DerivedIndexReport[] = [];
  for (const row of pending) {
    reports.push(row.index_name === GRAPH_INDEX ? await buildGraphForVersion(database, row.version_id) : await indexIdentifiers(database, row.version_id));
  }
  return Object.freeze(reports);
}
