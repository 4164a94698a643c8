/**
 * Source versions and chunks as graph nodes, and what a new version does to the old one: the old
 * version and its chunks are kept (status superseded, valid_to = superseded_at), and everything
 * derived from them, transitively over derived_from, turns stale with a reason naming the new
 * version. The walk is one recursive CTE, so a summary of a summary of a changed file is reached
 * in the same statement as the file's own facts.
 */
import { sql } from 'drizzle-orm';
import type { Database, DrizzleTransaction } from '../../../db/client';
import { StatementPacer } from '../db/statement-pacer';
import { jsonList, txQuery } from './knowledge-rows';

export interface VersionRow extends Record<string, unknown> {
  readonly id: string;
  readonly version_no: number;
  readonly content_hash: string;
  readonly chunk_count: number;
  readonly recorded_at: Date;
  readonly superseded_at: Date | null;
  /** Status of its knowledge node; null = not mirrored yet. */
  readonly node_status: string | null;
}

export interface SourceRow extends Record<string, unknown> {
  readonly id: string;
  readonly name: string;
  readonly kind: string;
}

/** Version node and the supersedes edge to its predecessor; idempotent. Its chunks: mirrorChunks, before. */
export async function mirrorVersion(tx: DrizzleTransaction, source: SourceRow, version: VersionRow, predecessor: VersionRow | undefined): Promise<void> {
  const status = version.superseded_at ? 'superseded' : 'current';
  const metadata = JSON.stringify({ sourceName: source.name, versionNo: version.version_no, contentHash: version.content_hash });
  await tx.execute(sql`
    insert into knowledge_nodes (id, kind, source_id, version_id, text, valid_from, valid_to, recorded_at, status, metadata)
    values (${version.id}, 'source', ${source.id}, ${version.id}, ${`${source.name} v${version.version_no}`}, ${version.recorded_at}::timestamptz,
            ${version.superseded_at}::timestamptz, ${version.recorded_at}::timestamptz, ${status}, ${metadata}::jsonb)
    on conflict (id) do nothing`);
  if (predecessor) {
    await tx.execute(sql`
      insert into knowledge_edges (from_id, to_id, kind, recorded_at) values (${version.id}, ${predecessor.id}, 'supersedes', ${version.recorded_at}::timestamptz)
      on conflict do nothing`);
  }
}

/** Rows of a chunk-node batch, before the pacer has timed one (500 per statement is the ceiling). */
const FIRST_MIRROR_ROWS = 200;
const MAX_MIRROR_ROWS = 500;

/**
 * Chunk nodes and contains edges of a version, in keyset batches of short statements outside the
 * sync's transaction (issue 13): as one statement each they held PGlite, and every request, for
 * 344 ms at 2,800 chunks and for seconds at 50,000. Idempotent (on conflict do nothing), so a sync
 * cut short redoes only what is missing; the version node, written last in the transaction, is what
 * marks the version mirrored. Returns the chunk nodes inserted.
 */
export async function mirrorChunks(database: Database, version: VersionRow): Promise<number> {
  const status = version.superseded_at ? 'superseded' : 'current';
  // Transaction time of a mirrored node is when the store recorded the version, not when the
  // graph caught up: "what did we know on day K" must not depend on when the hook ran.
  const pacer = new StatementPacer({ initialRows: FIRST_MIRROR_ROWS, maxRows: MAX_MIRROR_ROWS });
  let inserted = 0;
  let after = '';
  for (let more = true; more; ) {
    more = await pacer.run(async (rows) => {
      const [batch] = await database.query<{ inserted: number; last: string | null; picked: number }>(sql`
        with picked as (
          select id, source_id, version_id, coalesce(locator, uri) as label from chunks
          where version_id = ${version.id} and id > ${after} order by id limit ${rows}
        ), nodes as (
          insert into knowledge_nodes (id, kind, source_id, version_id, chunk_id, text, valid_from, valid_to, recorded_at, status)
          select id, 'chunk', source_id, version_id, id, label, ${version.recorded_at}::timestamptz, ${version.superseded_at}::timestamptz,
                 ${version.recorded_at}::timestamptz, ${status}
          from picked
          on conflict (id) do nothing
          returning 1
        ), edges as (
          insert into knowledge_edges (from_id, to_id, kind, recorded_at)
          select ${version.id}, id, 'contains', ${version.recorded_at}::timestamptz from picked
          on conflict do nothing
          returning 1
        )
        select (select count(*)::int from nodes) as inserted, (select max(id) from picked) as last,
               (select count(*)::int from picked) as picked, (select count(*) from edges) as edges`);
      inserted += Number(batch?.inserted ?? 0);
      if (!batch?.last || Number(batch.picked) < rows) return false;
      after = batch.last;
      return true;
    });
  }
  return inserted;
}

export interface StaleNode extends Record<string, unknown> {
  readonly id: string;
  readonly kind: string;
  readonly source_id: string | null;
  readonly version_id: string | null;
}

export interface RetirementReasons {
  /** For the old version's own chunks and what was derived from them inside the source. */
  readonly own: string;
  /** For other sources' content derived from it. */
  readonly derived: string;
}

export function retirementReasons(source: SourceRow, old: VersionRow, successor: VersionRow): RetirementReasons {
  const at = (old.superseded_at ?? successor.recorded_at).toISOString();
  const successorLabel = `v${successor.version_no} (${successor.id})`;
  return Object.freeze({
    own: `${source.name} v${old.version_no} was superseded by ${successorLabel} at ${at}`,
    derived: `derived from ${source.name} v${old.version_no}, which was superseded by ${successorLabel} at ${at}`,
  });
}

/** Retires an old version and marks what was derived from it stale; returns the nodes that turned stale. */
export async function retireVersion(tx: DrizzleTransaction, source: SourceRow, old: VersionRow, successor: VersionRow, reasons: RetirementReasons): Promise<StaleNode[]> {
  const supersededAt = old.superseded_at ?? successor.recorded_at;
  const reason = reasons.own;
  await tx.execute(sql`
    update knowledge_nodes set status = 'superseded', valid_to = ${supersededAt}::timestamptz, status_reason = ${reason}
    where (id = ${old.id} or (kind = 'chunk' and version_id = ${old.id})) and status = 'current'`);
  // Roots are the chunks table's rows, not chunk nodes: a derivation may point at a chunk that
  // was never mirrored (ingested before the Knowledge Layer existed).
  return txQuery<StaleNode>(tx, sql`
    with recursive dependents(id) as (
      select e.from_id from knowledge_edges e
      where e.kind = 'derived_from' and e.expired_at is null
        and (e.to_id = ${old.id} or e.to_id in (select id from chunks where version_id = ${old.id}))
      union
      select e.from_id from knowledge_edges e join dependents d on e.to_id = d.id
      where e.kind = 'derived_from' and e.expired_at is null
    )
    update knowledge_nodes n
    set status = 'stale', expired_at = now(),
        status_reason = case when n.source_id = ${source.id} then ${reason} else ${reasons.derived} end
    from dependents d
    where n.id = d.id and n.status in ('current', 'superseded')
    returning n.id, n.kind, n.source_id, n.version_id`);
}

/**
 * Source versions whose content was derived from a retired version (a summary source built from
 * a file that changed): their own version node turns stale, and the caller flags the source so the
 * planner rejects it with the reason.
 */
export async function staleDerivedVersions(tx: DrizzleTransaction, source: SourceRow, stale: readonly StaleNode[], reasons: RetirementReasons): Promise<{ name: string; reason: string }[]> {
  const versions = [...new Set(stale.filter((node) => node.source_id !== source.id && (node.kind === 'chunk' || node.kind === 'source')).map((node) => node.version_id!))];
  if (versions.length === 0) return [];
  const rows = await txQuery<{ name: string; reason: string }>(tx, sql`
    update knowledge_nodes n set status = 'stale', expired_at = coalesce(n.expired_at, now()), status_reason = ${reasons.derived}
    from sources s
    where n.kind = 'source' and n.id in ${jsonList(versions)} and s.current_version_id = n.id
    returning s.name, n.status_reason as reason`);
  return rows;
}
