/**
 * The Knowledge page's read model: sources with their versions and staleness, a source's facts,
 * a node's lineage and the open contradictions. Reads only; the graph is written by KnowledgeGraph.
 */
import { sql } from 'drizzle-orm';
import type { Database } from '../../../db/client';
import { ContextRuntimeError } from '../../runtime/errors';
import type { ContradictionGroup, KnowledgeExplorerPort, KnowledgeNodeView, KnowledgeSourceSummary, Lineage, SourceVersionView } from '../../runtime/contracts/knowledge-explorer';
import { contradictionGroups } from './contradiction-query';
import { toIso } from './knowledge-rows';
import { lineageOf, NODE_VIEW_COLUMNS, nodeViewOf } from './lineage-query';

/** Facts listed per source on the page; a manifest-heavy source has dozens, not thousands. */
const FACT_PAGE_LIMIT = 500;

export class KnowledgeExplorer implements KnowledgeExplorerPort {
  constructor(private readonly database: Database) {}

  async sources(): Promise<readonly KnowledgeSourceSummary[]> {
    const rows = await this.database.query(sql`
      select s.name, s.kind, s.stale, s.stale_reason, v.version_no, v.id as version_id, v.chunk_count, n.status as node_status, n.status_reason as node_reason,
        (select count(*) from source_versions x where x.source_id = s.id)::int as versions,
        (select count(*) from knowledge_nodes f where f.kind = 'fact' and f.source_id = s.id and f.status = 'current' and f.valid_to is null)::int as facts,
        (select count(distinct (f.subject, f.attribute)) from knowledge_edges e join knowledge_nodes f on f.id in (e.from_id, e.to_id)
          where e.kind = 'contradicts' and e.expired_at is null and f.source_id = s.id)::int as contradictions,
        (select count(*) from chunks c where c.source_id = s.id and c.is_current and c.sensitive)::int as sensitive_chunks
      from sources s
      left join source_versions v on v.id = s.current_version_id
      left join knowledge_nodes n on n.id = s.current_version_id
      order by s.name`);
    return Object.freeze(
      rows.map((row) => {
        const nodeStale = row.node_status === 'stale';
        return Object.freeze({
          name: String(row.name),
          kind: String(row.kind),
          currentVersionNo: row.version_no === null ? null : Number(row.version_no),
          currentVersionId: (row.version_id as string | null) ?? null,
          versions: Number(row.versions),
          chunks: Number(row.chunk_count ?? 0),
          facts: Number(row.facts),
          contradictions: Number(row.contradictions),
          sensitiveChunks: Number(row.sensitive_chunks),
          stale: Boolean(row.stale) || nodeStale,
          staleReason: ((row.stale ? row.stale_reason : nodeStale ? row.node_reason : null) as string | null) ?? null,
        });
      }),
    );
  }

  /** Every version of a source, newest first; old versions are never deleted. */
  async versions(sourceName: string): Promise<readonly SourceVersionView[]> {
    await this.requireSource(sourceName);
    const rows = await this.database.query(sql`
      select v.id, v.version_no, v.content_hash, v.chunk_count, v.token_count, v.recorded_at, v.superseded_at, n.status, n.status_reason,
        (select count(*) from knowledge_nodes f where f.kind = 'fact' and f.version_id = v.id)::int as facts
      from source_versions v join sources s on s.id = v.source_id left join knowledge_nodes n on n.id = v.id
      where s.name = ${sourceName} order by v.version_no desc`);
    return Object.freeze(
      rows.map((row) =>
        Object.freeze({
          id: String(row.id),
          versionNo: Number(row.version_no),
          contentHash: String(row.content_hash),
          chunkCount: Number(row.chunk_count),
          tokenCount: Number(row.token_count),
          recordedAt: toIso(row.recorded_at) ?? '',
          supersededAt: toIso(row.superseded_at),
          status: (row.status as string | null) ?? null,
          statusReason: (row.status_reason as string | null) ?? null,
          facts: Number(row.facts),
        }),
      ),
    );
  }

  /** Facts of a source's current version (also those closed by a newer dated fact), then stale ones of older versions. */
  async facts(sourceName: string): Promise<readonly (KnowledgeNodeView & { readonly locator: string | null })[]> {
    await this.requireSource(sourceName);
    const rows = await this.database.query(sql`
      select ${NODE_VIEW_COLUMNS}, c.locator
      from knowledge_nodes n
      join sources s on s.id = n.source_id
      left join source_versions v on v.id = n.version_id
      left join chunks c on c.id = n.chunk_id
      where n.kind = 'fact' and s.name = ${sourceName}
      order by (n.version_id = s.current_version_id) desc, n.subject, n.attribute, n.valid_from desc nulls last, n.id
      limit ${FACT_PAGE_LIMIT}`);
    return Object.freeze(rows.map((row) => Object.freeze({ ...nodeViewOf(row), locator: (row.locator as string | null) ?? null })));
  }

  lineage(nodeId: string): Promise<Lineage> {
    return lineageOf(this.database, nodeId);
  }

  async contradictions(sourceName?: string): Promise<readonly ContradictionGroup[]> {
    if (sourceName !== undefined) await this.requireSource(sourceName);
    return Object.freeze(await contradictionGroups(this.database, sourceName === undefined ? {} : { sourceNames: [sourceName] }));
  }

  private async requireSource(name: string): Promise<void> {
    const [row] = await this.database.query(sql`select 1 as present from sources where name = ${name}`);
    if (!row) throw new ContextRuntimeError('UNKNOWN_SOURCE', `unknown source "${name}"`, { field: 'sourceName', details: { source: name } });
  }
}
