import { sql } from 'drizzle-orm';
import type { Database } from '../../../db/client';
import { GRAPH_INDEX, OPENIE_INDEX, OPENIE_PARTIAL_INDEX } from './graph-builder';
import { createPassageGraph, DEFAULT_WEIGHTING, type EntityRelation, type GraphWeighting, type PassageEntityLink, type PassageGraph } from './passage-graph';

interface LinkRow extends Record<string, unknown> {
  readonly chunk_id: string;
  readonly source_id: string;
  readonly name: string;
  readonly role: string;
  readonly weight: number | string;
}

/**
 * The graph of every source's current version, held in memory (PPR runs in process) and reloaded
 * only when the set of built current versions changes: the key is that set, read with one small
 * query per search, so a re-ingest anywhere (or a graph rebuilt by another process) is seen on
 * the next search without a listener. Loading MuSiQue's ~19k edges takes ~100 ms; a search then
 * pays ~1 ms for the key.
 */
export interface GraphCacheOptions {
  readonly weighting: GraphWeighting;
  /**
   * How long a checked key is trusted. The check is one aggregate query (~1 ms idle, 10 ms on a
   * loaded 2-core machine), too much for every search of a ~5 ms method; a graph up to this old
   * is harmless because hits are joined to `chunks.is_current` and a superseded passage drops
   * out. `invalidate()` makes a rebuild visible at once.
   */
  readonly recheckMs: number;
}

export const DEFAULT_GRAPH_CACHE: GraphCacheOptions = Object.freeze({ weighting: DEFAULT_WEIGHTING, recheckMs: 1000 });

export class GraphCache {
  private key = '';
  private checkedAt = -Infinity;
  private graph?: PassageGraph;
  private loading?: Promise<PassageGraph>;
  private readonly options: GraphCacheOptions;

  constructor(
    private readonly database: Database,
    options: Partial<GraphCacheOptions> = {},
  ) {
    this.options = Object.freeze({ ...DEFAULT_GRAPH_CACHE, ...options });
  }

  /** Forces a key check on the next `current()`: call after buildGraphForVersion so the next search sees the new graph. */
  invalidate(): void {
    this.checkedAt = -Infinity;
  }

  async current(): Promise<PassageGraph> {
    if (this.graph && performance.now() - this.checkedAt < this.options.recheckMs) return this.graph;
    const key = await this.versionKey();
    this.checkedAt = performance.now();
    if (this.graph && key === this.key) return this.graph;
    if (this.loading) return this.loading;
    this.loading = this.load(key).finally(() => {
      this.loading = undefined;
    });
    return this.loading;
  }

  private async versionKey(): Promise<string> {
    const [row] = await this.database.query<{ key: string | null }>(sql`
      select string_agg(built.version_id || ':' || built.index_name || ':' || extract(epoch from built.built_at)::text, ',' order by built.version_id, built.index_name) as key
      from sources join derived_index_builds built
        on built.version_id = sources.current_version_id and built.index_name in (${GRAPH_INDEX}, ${OPENIE_INDEX}, ${OPENIE_PARTIAL_INDEX})`);
    return row?.key ?? '';
  }

  private async load(key: string): Promise<PassageGraph> {
    const rows = await this.database.query<LinkRow>(sql`
      select links.chunk_id, sources.id as source_id, entities.name, links.role, links.weight
      from sources
      join graph_passage_entities links on links.version_id = sources.current_version_id
      join graph_entities entities on entities.id = links.entity_id
      order by links.chunk_id, entities.name`);
    const links: PassageEntityLink[] = rows.map((row) => ({ chunkId: row.chunk_id, sourceId: row.source_id, entity: row.name, role: row.role, weight: Number(row.weight) }));
    // OpenIE relation edges (openie-indexer.ts); none without an LLM.
    const relationRows = await this.database.query<{ chunk_id: string; subject: string; object: string; weight: number | string }>(sql`
      select relations.chunk_id, subjects.name as subject, objects.name as object, relations.weight
      from sources
      join graph_entity_relations relations on relations.version_id = sources.current_version_id
      join graph_entities subjects on subjects.id = relations.subject_id
      join graph_entities objects on objects.id = relations.object_id
      order by relations.chunk_id, subjects.name, objects.name`);
    const relations: EntityRelation[] = relationRows.map((row) => ({ chunkId: row.chunk_id, subject: row.subject, object: row.object, weight: Number(row.weight) }));
    const graph = createPassageGraph(links, this.options.weighting, relations);
    this.graph = graph;
    this.key = key;
    return graph;
  }
}
