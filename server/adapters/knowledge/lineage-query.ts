/**
 * A node's lineage: where it came from, followed up derived_from edges and, from a chunk, to the
 * source version that contains it, in one recursive CTE. A memory resolves to its fact, the fact
 * to its chunk, the chunk to its source version; a derived source continues into its upstream.
 */
import { sql } from 'drizzle-orm';
import type { Database } from '../../../db/client';
import { ContextRuntimeError } from '../../runtime/errors';
import type { KnowledgeNodeView, Lineage } from '../../runtime/contracts/knowledge-explorer';
import { toIso } from './knowledge-rows';

/** Deeper chains than this are cycles or mistakes; a summary of a summary of a file is depth 3–4. */
const MAX_DEPTH = 32;

/** Columns of a KnowledgeNodeView, selected from `knowledge_nodes n` joined to `sources s` and `source_versions v`. */
export const NODE_VIEW_COLUMNS = sql`n.id, n.kind, s.name as source_name, v.version_no, n.subject, n.attribute, n.value, n.text, n.confidence,
  n.status, n.status_reason, n.valid_from, n.valid_to, n.recorded_at, n.expired_at`;

export function nodeViewOf(row: Record<string, unknown>): KnowledgeNodeView {
  return Object.freeze({
    id: String(row.id),
    kind: String(row.kind),
    sourceName: (row.source_name as string | null) ?? null,
    versionNo: row.version_no === null || row.version_no === undefined ? null : Number(row.version_no),
    subject: (row.subject as string | null) ?? null,
    attribute: (row.attribute as string | null) ?? null,
    value: (row.value as string | null) ?? null,
    text: (row.text as string | null) ?? null,
    confidence: row.confidence === null || row.confidence === undefined ? null : Number(row.confidence),
    status: String(row.status),
    statusReason: (row.status_reason as string | null) ?? null,
    validFrom: toIso(row.valid_from),
    validTo: toIso(row.valid_to),
    recordedAt: toIso(row.recorded_at) ?? '',
    expiredAt: toIso(row.expired_at),
  });
}

export async function lineageOf(database: Database, nodeId: string): Promise<Lineage> {
  const rows = await database.query(sql`
    with recursive chain(id, depth, via, parent_id) as (
      select ${nodeId}::text, 0, null::text, null::text
      union all
      select case when e.kind = 'derived_from' then e.to_id else e.from_id end, c.depth + 1, e.kind, c.id
      from chain c
      join knowledge_edges e on (e.kind = 'derived_from' and e.from_id = c.id) or (e.kind = 'contains' and e.to_id = c.id)
      where c.depth < ${MAX_DEPTH}
    ), nearest as (
      select distinct on (id) id, depth, via, parent_id from chain order by id, depth
    )
    select ${NODE_VIEW_COLUMNS}, c.depth, c.via, c.parent_id
    from nearest c
    join knowledge_nodes n on n.id = c.id
    left join sources s on s.id = n.source_id
    left join source_versions v on v.id = n.version_id
    order by c.depth, n.kind, n.id`);
  const start = rows.find((row) => Number(row.depth) === 0);
  if (!start) throw new ContextRuntimeError('NOT_FOUND', `no knowledge node "${nodeId}"`, { field: 'nodeId', details: { nodeId } });
  return Object.freeze({
    node: nodeViewOf(start),
    chain: Object.freeze(
      rows
        .filter((row) => Number(row.depth) > 0)
        .map((row) => Object.freeze({ ...nodeViewOf(row), depth: Number(row.depth), via: (row.via as string | null) ?? null, parentId: (row.parent_id as string | null) ?? null })),
    ),
  });
}
