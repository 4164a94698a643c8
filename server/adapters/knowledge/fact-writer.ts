/**
 * Facts of a source version into the graph: one fact node per (chunk, subject, attribute, value)
 * with a derived_from edge to its chunk; then, per source, older dated facts closed by newer ones
 * (supersedes), and contradictions among facts that are valid now.
 */
import { type SQL, sql } from 'drizzle-orm';
import type { Database, DrizzleTransaction } from '../../../db/client';
import { TimeSlice } from '../../runtime/scheduler/time-slice';
import { StatementPacer } from '../db/statement-pacer';
import { extractFacts } from './fact-extractor';
import { factIdOf, jsonList, txQuery } from './knowledge-rows';

export interface FactRow {
  readonly id: string;
  readonly chunk_id: string;
  readonly subject: string;
  readonly attribute: string;
  readonly value: string;
  readonly text: string;
  readonly confidence: number;
  readonly valid_from: string | null;
  readonly valid_to: string | null;
  readonly status: 'current' | 'superseded';
  readonly status_reason: string | null;
  readonly origin: string;
}

interface ChunkRow extends Record<string, unknown> {
  readonly id: string;
  readonly uri: string;
  readonly title: string;
  readonly body: string;
  readonly locator: string | null;
  readonly metadata: Record<string, unknown> | null;
}

/** Chunks read per statement: bodies of a large version in one read held the thread (50,000 rows, ~60 MiB). */
const CHUNK_PAGE_ROWS = 500;

/**
 * Reads the version's chunks page by page and extracts their facts (outside any transaction: it is
 * pure CPU after each read). Extraction is synchronous: over a 50,000-chunk version it held the event
 * loop (and sign-in) for seconds, so it yields on a time budget (time-slice.ts).
 */
export async function factsOfVersion(database: Database, sourceKind: string, versionId: string): Promise<FactRow[]> {
  const rows: FactRow[] = [];
  const slice = new TimeSlice();
  for (let after = ''; ; ) {
    const chunks = await database.query<ChunkRow>(
      sql`select id, uri, title, body, locator, metadata from chunks where version_id = ${versionId} and not lookup_only and id > ${after} order by id limit ${CHUNK_PAGE_ROWS}`,
    );
    for (const chunk of chunks) {
      await slice.yieldIfSpent();
      for (const fact of extractFacts({ sourceKind, uri: chunk.uri, title: chunk.title, text: chunk.body, metadata: chunk.metadata ?? {} })) {
        const until = fact.validTo !== undefined;
        rows.push({
          id: factIdOf(chunk.id, fact.subject, fact.attribute, fact.value, until),
          chunk_id: chunk.id,
          subject: fact.subject,
          attribute: fact.attribute,
          value: fact.value,
          text: fact.evidence,
          confidence: fact.confidence,
          valid_from: fact.validFrom?.toISOString() ?? null,
          valid_to: fact.validTo?.toISOString() ?? null,
          status: until ? 'superseded' : 'current',
          status_reason: until ? `valid until ${fact.validTo!.toISOString()}: changed in ${chunk.locator ?? chunk.uri}` : null,
          origin: fact.origin,
        });
      }
    }
    if (chunks.length < CHUNK_PAGE_ROWS) return rows;
    after = chunks[chunks.length - 1].id;
  }
}

/** Fact rows per INSERT before the pacer has timed one; 2,000 (one JSON parameter) is the ceiling. */
const FIRST_FACT_ROWS = 250;
const MAX_FACT_ROWS = 2000;

/**
 * Fact nodes and their derived_from edges, in paced statements outside the sync's transaction
 * (issue 13: thousands of facts in one transaction held every request). Idempotent (deterministic
 * ids, on conflict do nothing), so a sync cut short writes only what is missing when it runs again.
 */
export async function insertFacts(database: Database, sourceId: string, versionId: string, facts: readonly FactRow[]): Promise<void> {
  const pacer = new StatementPacer({ initialRows: FIRST_FACT_ROWS, maxRows: MAX_FACT_ROWS });
  for (let start = 0; start < facts.length; ) {
    await pacer.run(async (rows) => {
      const payload = JSON.stringify(facts.slice(start, start + rows));
      await database.query(insertFactsStatement(sourceId, versionId, payload));
      start += rows;
    });
  }
}

const insertFactsStatement = (sourceId: string, versionId: string, payload: string): SQL => sql`
  with row_set as (
    select * from jsonb_to_recordset(${payload}::jsonb) as row_set(id text, chunk_id text, subject text, attribute text, value text, text text,
      confidence real, valid_from timestamptz, valid_to timestamptz, status text, status_reason text, origin text)
  ), nodes as (
    insert into knowledge_nodes (id, kind, source_id, version_id, chunk_id, subject, attribute, value, text, confidence, valid_from, valid_to, status, status_reason, metadata)
    select id, 'fact', ${sourceId}, ${versionId}, chunk_id, subject, attribute, value, text, confidence, valid_from, valid_to, status, status_reason,
           jsonb_build_object('origin', origin)
    from row_set
    on conflict (id) do nothing
    returning 1
  ), edges as (
    insert into knowledge_edges (from_id, to_id, kind)
    select id, chunk_id, 'derived_from' from row_set
    on conflict do nothing
    returning 1
  )
  select (select count(*) from nodes) as nodes, (select count(*) from edges) as edges`;

/**
 * Within one source, a dated fact is closed by the next dated fact with another value for the same
 * subject and attribute (commit 48d4188's 256Mi closes an earlier commit's 512Mi): valid_to = the
 * newer fact's valid_from, plus a supersedes edge. Across sources a disagreement stays a
 * contradiction, because which source is right is exactly what the reader must be told.
 */
export async function closeSupersededFacts(tx: DrizzleTransaction, sourceId: string): Promise<number> {
  const closed = await txQuery<{ id: string }>(tx, sql`
    with successor as (
      select distinct on (f.id) f.id, g.id as successor_id, g.valid_from as next_from, g.value as next_value
      from knowledge_nodes f
      join knowledge_nodes g on g.kind = 'fact' and g.source_id = f.source_id and g.subject = f.subject and g.attribute = f.attribute
        and g.status in ('current', 'superseded') and g.valid_from > f.valid_from and g.value <> f.value
      where f.kind = 'fact' and f.source_id = ${sourceId} and f.status = 'current' and f.valid_to is null and f.valid_from is not null
      order by f.id, g.valid_from, g.id
    ), closed as (
      update knowledge_nodes n
      set valid_to = s.next_from, status = 'superseded', status_reason = 'superseded by ' || s.next_value || ' from ' || to_char(s.next_from at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')
      from successor s where n.id = s.id
      returning s.id, s.successor_id
    )
    insert into knowledge_edges (from_id, to_id, kind) select successor_id, id, 'supersedes' from closed
    on conflict do nothing
    returning to_id as id`);
  return closed.length;
}

/**
 * Contradicts edges between facts valid now (status current, no valid_to) on one subject and
 * attribute with different values from different chunks, stored once per pair (lower id first).
 * Edges whose ends are no longer valid now are retired (expired_at), never deleted.
 */
export async function refreshContradictions(tx: DrizzleTransaction, sourceIds: readonly string[]): Promise<number> {
  await tx.execute(sql`
    update knowledge_edges e set expired_at = now()
    where e.kind = 'contradicts' and e.expired_at is null
      and exists (select 1 from knowledge_nodes n where n.id in (e.from_id, e.to_id)
                  and (n.status <> 'current' or n.valid_to is not null or n.expired_at is not null))`);
  if (sourceIds.length === 0) return 0;
  const added = await txQuery<{ from_id: string }>(tx, sql`
    insert into knowledge_edges (from_id, to_id, kind, metadata)
    select a.id, b.id, 'contradicts', jsonb_build_object('subject', a.subject, 'attribute', a.attribute, 'values', jsonb_build_array(a.value, b.value))
    from knowledge_nodes a
    join knowledge_nodes b on b.kind = 'fact' and b.subject = a.subject and b.attribute = a.attribute and a.id < b.id
      and b.value <> a.value and b.chunk_id <> a.chunk_id and b.status = 'current' and b.valid_to is null and b.expired_at is null
    where a.kind = 'fact' and a.status = 'current' and a.valid_to is null and a.expired_at is null
      and (a.source_id in ${jsonList(sourceIds)} or b.source_id in ${jsonList(sourceIds)})
    on conflict do nothing
    returning from_id`);
  return added.length;
}
