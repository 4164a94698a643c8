import { sql } from 'drizzle-orm';
import type { Database } from '../../../db/client';
import { RETRIEVER_CONTRACT, type RetrievalQuery, type RetrieverCapabilities, type RetrieverPlugin } from '../../runtime/contracts/retriever';
import type { Hit } from '../../runtime/types';
import type { CorpusStats } from '../db/corpus-stats';
import { sourceIdOf } from '../db/ids';
import { DEFAULT_LINKING, type LinkingOptions, linkQueryEntities } from '../graph/entity-linker';
import type { GraphCache } from '../graph/graph-cache';
import type { PassageGraph } from '../graph/passage-graph';
import { DEFAULT_PAGERANK, type PageRankOptions, personalizedPageRank } from '../graph/personalized-pagerank';
import { BM25_RECALL_PRIOR } from './bm25-retriever';
import { type ChunkHitRow, clampK, SEARCHED_CHUNKS, toHits } from './chunk-hits';
import { scaledRecallPrior } from './fitted-prior-ratios';
import { fusionCapability } from './fitted-fusion-ratios';

export interface GraphRetrieverOptions {
  /**
   * Seeds passages as well as entities with this retriever's top hits (HippoRAG 2's passage
   * nodes, seeded there by a dense retriever): the walk then starts from what the question says
   * in words and from what it names. Undefined = entity seeds only (HippoRAG 1).
   */
  readonly passageSeeder?: RetrieverPlugin;
  readonly passageSeedCount: number;
  /** Share of the seed distribution given to passage seeds (the rest to linked entities). */
  readonly passageSeedShare: number;
  readonly pageRank: PageRankOptions;
  readonly linking: LinkingOptions;
}

export const DEFAULT_GRAPH_OPTIONS: Omit<GraphRetrieverOptions, 'passageSeeder'> = Object.freeze({
  passageSeedCount: 20,
  // HippoRAG 2 weights passage seeds 0.05 against phrase seeds. Measured here with bm25 seeds,
  // Recall@2/5/10 on MuSiQue (HotpotQA) train100: entity seeds only 56.5/69.2/76.3 (73.0/88.5/94.0);
  // share 0, i.e. bm25 seeds only when no entity links, 57.0/70.2/77.3 (73.0/89.0/94.5); 0.05
  // 56.5/70.8/81.4 (73.5/90.0/96.5); 0.1 55.4/73.2/78.6 (72.5/90.0/96.5); 0.2 53.9/66.8/72.2
  // (72.0/87.5/95.5); bm25 alone 41.2/49.0/55.9 (61.5/80.0/91.0).
  passageSeedShare: 0.05,
  pageRank: DEFAULT_PAGERANK,
  linking: DEFAULT_LINKING,
});

/**
 * bm25's priors scaled by graph's fitted ratios (fitted-prior-ratios.ts): above bm25 on multi-hop
 * questions, below it on SciFact's conceptual claims (named by lower-case scientific terms the span
 * extractor does not see), and no better than bm25 where the goal is an identifier or an incident.
 */
const RECALL_PRIOR = scaledRecallPrior(BM25_RECALL_PRIOR, 'graph');

/**
 * Multi-hop retrieval in the manner of HippoRAG (Gutiérrez et al., NeurIPS 2024): query entities
 * linked to the entity–passage graph seed a Personalized PageRank, and passages rank by the mass
 * the walk leaves on them, so a passage that shares no words with the question but names the
 * entity that bridges two of its hops still surfaces.
 */
export class GraphRetriever implements RetrieverPlugin {
  readonly contract = RETRIEVER_CONTRACT;
  readonly method = 'graph';
  private readonly options: GraphRetrieverOptions;

  constructor(
    private readonly database: Database,
    private readonly corpus: CorpusStats,
    private readonly cache: GraphCache,
    options: Partial<GraphRetrieverOptions> = {},
  ) {
    this.options = Object.freeze({ ...DEFAULT_GRAPH_OPTIONS, ...options });
  }

  capabilities(): RetrieverCapabilities {
    return Object.freeze({
      method: this.method,
      available: true,
      requires: Object.freeze([]),
      // MuSiQue train100 (1,890 passages, 17.7k edges): linking + PPR 5–6 ms in process and a search
      // p50 of 12.6 ms at k=100 on a 2-core machine under load average ~10; plus the seeding retriever.
      latencyMs: 3 + this.corpus.currentChunks / 1000 + (this.options.passageSeeder?.capabilities().latencyMs ?? 0),
      recallPrior: RECALL_PRIOR,
      ...fusionCapability(this.method),
    });
  }

  async search(query: RetrievalQuery): Promise<readonly Hit[]> {
    const k = clampK(query.k);
    if (k === 0 || query.sources.length === 0) return [];
    query.signal?.throwIfAborted();
    const graph = await this.cache.current();
    query.signal?.throwIfAborted();
    const ranked = await this.rank(graph, query, k);
    query.signal?.throwIfAborted();
    if (ranked.length === 0) return [];
    const payload = JSON.stringify(ranked.map(([passage, score]) => ({ id: graph.passageIds[passage], score })));
    const rows = await this.database.query<ChunkHitRow>(sql`
      select chunks.id, sources.name as source_name, sources.kind as source_kind, chunks.version_id,
             chunks.title, chunks.body, chunks.locator, chunks.tokens, chunks.sensitive, ranked.score
      from jsonb_to_recordset(${payload}::jsonb) as ranked(id text, score float8)
      join chunks on chunks.id = ranked.id and ${SEARCHED_CHUNKS}
      join sources on sources.id = chunks.source_id
      order by ranked.score desc, chunks.id asc`);
    query.signal?.throwIfAborted();
    return toHits(rows, this.method);
  }

  /** Passage indexes with their PPR mass, best first, at most k, within the query's sources. */
  async rank(graph: PassageGraph, query: RetrievalQuery, k: number): Promise<readonly (readonly [number, number])[]> {
    const allowed = allowedPassages(graph, query.sources);
    const links = linkQueryEntities(graph, query.text, query.identifiers, this.options.linking);
    const entities = new Map<number, number>();
    const linkTotal = links.reduce((sum, link) => sum + link.weight, 0);
    const passages = new Map<number, number>();
    const seedHits = this.options.passageSeeder ? await this.options.passageSeeder.search({ ...query, k: this.options.passageSeedCount }) : [];
    const seedTotal = seedHits.reduce((sum, hit) => sum + Math.max(hit.score, 0), 0);
    const passageShare = linkTotal === 0 ? 1 : seedTotal === 0 ? 0 : this.options.passageSeedShare;
    for (const link of links) entities.set(link.entity, ((1 - passageShare) * link.weight) / linkTotal);
    for (const hit of seedHits) {
      const passage = graph.passageIndex.get(hit.chunkId);
      if (passage !== undefined && hit.score > 0) passages.set(passage, (passageShare * hit.score) / seedTotal);
    }
    if (entities.size === 0 && passages.size === 0) return [];
    const { passageMass } = personalizedPageRank(graph, { entities, passages }, allowed, this.options.pageRank);
    return topPassages(passageMass, allowed, k);
  }
}

/** 1 for passages of the requested sources; undefined when every source in the graph is requested. */
function allowedPassages(graph: PassageGraph, sourceNames: readonly string[]): Uint8Array | undefined {
  const wanted = new Set(sourceNames.map(sourceIdOf));
  const sourceAllowed = graph.sourceIds.map((id) => wanted.has(id));
  if (sourceAllowed.every(Boolean)) return undefined;
  return Uint8Array.from(graph.passageSources, (source) => (sourceAllowed[source] ? 1 : 0));
}

function topPassages(mass: Float64Array, allowed: Uint8Array | undefined, k: number): readonly (readonly [number, number])[] {
  const candidates: (readonly [number, number])[] = [];
  for (let passage = 0; passage < mass.length; passage++) if (mass[passage] > 0 && (!allowed || allowed[passage])) candidates.push([passage, mass[passage]]);
  candidates.sort((left, right) => right[1] - left[1] || left[0] - right[0]);
  return candidates.slice(0, k);
}
