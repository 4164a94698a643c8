/**
 * Content built from other sources says so at ingest: a chunk whose metadata carries
 * `derivedFrom` (a source name, `{ source, uri }`, or a list of them) gets derived_from edges to
 * the upstream's version current at that moment, or to that version's chunks of the named file.
 * Its own version node gets one edge per upstream version, so when the upstream changes the
 * staleness walk reaches the derived source itself and the planner rejects it with the reason.
 */
import { sql } from 'drizzle-orm';
import type { DrizzleTransaction } from '../../../db/client';
import { txQuery } from './knowledge-rows';

interface Upstream {
  readonly source: string;
  readonly uri?: string;
}

interface DerivedChunk extends Record<string, unknown> {
  readonly id: string;
  readonly derived: unknown;
}

export function upstreamsOf(declared: unknown): Upstream[] {
  const entries = Array.isArray(declared) ? declared : [declared];
  return entries.flatMap((entry): Upstream[] => {
    if (typeof entry === 'string' && entry.trim()) return [{ source: entry.trim() }];
    if (entry && typeof entry === 'object' && typeof (entry as { source?: unknown }).source === 'string') {
      const { source, uri } = entry as { source: string; uri?: unknown };
      return [{ source, ...(typeof uri === 'string' && uri ? { uri } : {}) }];
    }
    return [];
  });
}

/** Returns the number of derived_from edges written. Unknown upstream sources are skipped: the ingest already committed. */
export async function linkDerivations(tx: DrizzleTransaction, versionId: string): Promise<number> {
  const derivedChunks = await txQuery<DerivedChunk>(tx, sql`
    select id, coalesce(metadata->'derivedFrom', metadata->'derived_from') as derived
    from chunks where version_id = ${versionId} and (metadata ? 'derivedFrom' or metadata ? 'derived_from')`);
  const edges: { from_id: string; to_id: string }[] = [];
  const currentVersions = new Map<string, string | undefined>();
  for (const chunk of derivedChunks) {
    for (const upstream of upstreamsOf(chunk.derived)) {
      if (!currentVersions.has(upstream.source)) {
        const [row] = await txQuery<{ version_id: string | null }>(tx, sql`select current_version_id as version_id from sources where name = ${upstream.source}`);
        currentVersions.set(upstream.source, row?.version_id ?? undefined);
      }
      const upstreamVersion = currentVersions.get(upstream.source);
      if (!upstreamVersion) continue;
      edges.push({ from_id: versionId, to_id: upstreamVersion });
      if (!upstream.uri) {
        edges.push({ from_id: chunk.id, to_id: upstreamVersion });
        continue;
      }
      const targets = await txQuery<{ id: string }>(tx, sql`select id from chunks where version_id = ${upstreamVersion} and uri = ${upstream.uri}`);
      // A file the upstream does not have (renamed, mistyped) still ties the chunk to the version.
      for (const target of targets.length > 0 ? targets : [{ id: upstreamVersion }]) edges.push({ from_id: chunk.id, to_id: target.id });
    }
  }
  if (edges.length === 0) return 0;
  await tx.execute(sql`
    insert into knowledge_edges (from_id, to_id, kind)
    select from_id, to_id, 'derived_from' from jsonb_to_recordset(${JSON.stringify(edges)}::jsonb) as row_set(from_id text, to_id text)
    on conflict do nothing`);
  return edges.length;
}
