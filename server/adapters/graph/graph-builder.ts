import { sql } from 'drizzle-orm';
import type { Database, DrizzleTransaction } from '../../../db/client';
import { sha256Hex } from '../db/ids';
import { extractEntities } from './entity-extractor';
import { scanIdentifiers } from './identifier-scan';

export const GRAPH_INDEX = 'graph';
export const IDENTIFIER_INDEX = 'identifiers';
/** LLM OpenIE links added to a built graph (openie-indexer.ts); `openie-partial` while a version is unfinished. */
export const OPENIE_INDEX = 'openie';
export const OPENIE_PARTIAL_INDEX = 'openie-partial';

/** Rows per INSERT … FROM jsonb_to_recordset: one JSON parameter a batch, as chunk-insert.ts measured. */
const INSERT_BATCH_ROWS = 2000;

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

const chunksOf = (database: Database, versionId: string) =>
  database.query<ChunkTextRow>(sql`select id, title, body from chunks where version_id = ${versionId} order by id`);

async function insertBatches(tx: DrizzleTransaction, rows: readonly object[], insert: (payload: string) => ReturnType<typeof sql>): Promise<void> {
  for (let start = 0; start < rows.length; start += INSERT_BATCH_ROWS) {
    await tx.execute(insert(JSON.stringify(rows.slice(start, start + INSERT_BATCH_ROWS))));
  }
}

const markBuilt = (tx: DrizzleTransaction, versionId: string, index: string, items: number) =>
  tx.execute(sql`
    insert into derived_index_builds (version_id, index_name, items) values (${versionId}, ${index}, ${items})
    on conflict (version_id, index_name) do update set items = excluded.items, built_at = now()`);

/**
 * The entity–passage graph of one source version (HippoRAG's offline indexing, with proper-noun
 * spans instead of LLM OpenIE; with a model configured, openie-indexer.ts adds OpenIE's links).
 * Idempotent: the version's edges are replaced in one transaction.
 * Entities are shared across sources and versions, keyed by normalised name, so a name mentioned
 * in a runbook and in a log is one node that bridges them.
 */
export async function buildGraphForVersion(database: Database, versionId: string): Promise<DerivedIndexReport> {
  const started = performance.now();
  const chunkRows = await chunksOf(database, versionId);
  const entities = new Map<string, string>();
  const links: { chunk_id: string; entity_id: string; role: string; weight: number }[] = [];
  for (const chunk of chunkRows) {
    for (const mention of extractEntities(chunk.title, chunk.body)) {
      let id = entities.get(mention.name);
      if (id === undefined) entities.set(mention.name, (id = entityIdOf(mention.name)));
      links.push({ chunk_id: chunk.id, entity_id: id, role: mention.role, weight: mention.count });
    }
  }
  await database.db.transaction(async (tx) => {
    await tx.execute(sql`delete from graph_passage_entities where version_id = ${versionId}`);
    // OpenIE's relations go with its links; openie-indexer.ts re-extracts a rebuilt version.
    await tx.execute(sql`delete from graph_entity_relations where version_id = ${versionId}`);
    const entityRows = [...entities].map(([name, id]) => ({ id, name }));
    await insertBatches(tx, entityRows, (payload) => sql`
      insert into graph_entities (id, name)
      select id, name from jsonb_to_recordset(${payload}::jsonb) as row_set(id text, name text)
      on conflict do nothing`);
    await insertBatches(tx, links, (payload) => sql`
      insert into graph_passage_entities (chunk_id, entity_id, version_id, role, weight)
      select chunk_id, entity_id, ${versionId}, role, weight
      from jsonb_to_recordset(${payload}::jsonb) as row_set(chunk_id text, entity_id text, role text, weight real)`);
    await markBuilt(tx, versionId, GRAPH_INDEX, links.length);
  });
  return Object.freeze({ versionId, index: GRAPH_INDEX, chunks: chunkRows.length, items: links.length, milliseconds: performance.now() - started });
}

/** Identifiers of one source version for the exact retriever; idempotent like the graph. */
export async function indexIdentifiers(database: Database, versionId: string): Promise<DerivedIndexReport> {
  const started = performance.now();
  const chunkRows = await chunksOf(database, versionId);
  const rows: { chunk_id: string; value: string; kind: string }[] = [];
  for (const chunk of chunkRows) {
    const seen = new Set<string>();
    for (const identifier of [...scanIdentifiers(chunk.title), ...scanIdentifiers(chunk.body)]) {
      if (seen.has(identifier.value)) continue;
      seen.add(identifier.value);
      rows.push({ chunk_id: chunk.id, value: identifier.value, kind: identifier.kind });
    }
  }
  await database.db.transaction(async (tx) => {
    await tx.execute(sql`delete from identifiers where version_id = ${versionId}`);
    await insertBatches(tx, rows, (payload) => sql`
      insert into identifiers (value, kind, chunk_id, version_id)
      select value, kind, chunk_id, ${versionId}
      from jsonb_to_recordset(${payload}::jsonb) as row_set(chunk_id text, value text, kind text)`);
    await markBuilt(tx, versionId, IDENTIFIER_INDEX, rows.length);
  });
  return Object.freeze({ versionId, index: IDENTIFIER_INDEX, chunks: chunkRows.length, items: rows.length, milliseconds: performance.now() - started });
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
