import { type SQL, sql } from 'drizzle-orm';
import type { Database } from '../../../db/client';
import type { EmbedderPlugin } from '../../runtime/contracts/embedder';
import { RETRIEVER_CONTRACT, type RetrievalQuery, type RetrieverCapabilities, type RetrieverPlugin } from '../../runtime/contracts/retriever';
import type { Hit } from '../../runtime/types';
import type { CorpusStats } from '../db/corpus-stats';
import { isZeroVector, quoteLiteral, toVectorLiteral } from '../embeddings/embedding-table';
import type { RetrieverAvailability } from './bm25-retriever';
import { type ChunkHitRow, clampK, currentChunksOf, SEARCHED_CHUNKS, toHits } from './chunk-hits';

type RecallPrior = Readonly<Partial<Record<string, number>>>;

/**
 * Priors for the offline SIF embedder. Word-vector averages blur identifiers (an error code or
 * pod name is out of vocabulary or one word among many), so exact_id and incident sit well below
 * bm25's. Conceptual paraphrase is where they help, moderately: on everyday prose they match
 * paraphrases sharing almost no words (dense-retriever.test.ts), but on BEIR SciFact they reach only
 * nDCG@10 0.317 (measured, train claims) against BM25's 0.665, as scientific terms are rare or
 * missing in a news/Wikipedia vocabulary (the issue quotes ~0.22 for plain SIF). bench:retrieval
 * puts their Recall@10 at 0.54–0.73 of BM25's (SciFact 43.5 vs 80.9, MuSiQue 31.1 vs 55.9,
 * HotpotQA 66.5 vs 91.0), so the priors are about 0.6 of bm25's: alone, or fused, no substitute.
 */
export const SIF_RECALL_PRIOR: RecallPrior = Object.freeze({ exact_id: 0.2, incident: 0.4, high_risk: 0.4, sensitive: 0.4, conceptual: 0.36, multi_hop: 0.28 });

/**
 * Priors for trained provider embedders (OpenAI text-embedding-3, nomic-embed-text): BEIR-style
 * results put them at or above BM25 on paraphrase and below it on rare identifiers.
 */
export const PROVIDER_RECALL_PRIOR: RecallPrior = Object.freeze({ exact_id: 0.45, incident: 0.6, high_risk: 0.65, sensitive: 0.6, conceptual: 0.8, multi_hop: 0.55 });

export interface DenseRetrieverOptions extends RetrieverAvailability {
  readonly recallPrior: RecallPrior;
  /** First guess at one query's embedding time until measured (SIF ~1 ms; a remote provider ~200 ms). */
  readonly embedLatencyMs: number;
}

/** pgvector ≥ 0.8 can keep scanning the HNSW graph until LIMIT rows pass the source filter. */
const ITERATIVE_SCAN_FROM = [0, 8];

/** Cosine similarity over pgvector HNSW (`<=>` on the embedder's partial index), current chunks of the requested sources only. */
export class DenseRetriever implements RetrieverPlugin {
  readonly contract = RETRIEVER_CONTRACT;
  readonly method = 'dense';
  private embeddedChunks = 0;
  private embedLatencyMs: number;
  private iterativeScan?: Promise<boolean>;

  constructor(
    private readonly database: Database,
    private readonly corpus: CorpusStats,
    readonly embedder: EmbedderPlugin,
    private readonly options: DenseRetrieverOptions,
  ) {
    this.embedLatencyMs = options.embedLatencyMs;
  }

  capabilities(): RetrieverCapabilities {
    const total = this.corpus.currentChunks;
    const reason = !this.options.available
      ? (this.options.reason ?? 'extension vector is not installed on this server')
      : this.embeddedChunks === 0
        ? `no current chunk has a ${this.embedder.id} embedding yet`
        : undefined;
    // Chunks without a vector cannot be found: recall scales with the embedded share.
    const coverage = total > 0 ? Math.min(1, this.embeddedChunks / total) : 0;
    const recallPrior = Object.fromEntries(Object.entries(this.options.recallPrior).map(([intent, prior]) => [intent, (prior ?? 0) * coverage]));
    return Object.freeze({
      method: this.method,
      available: reason === undefined,
      ...(reason === undefined ? {} : { unavailableReason: reason }),
      requires: Object.freeze(['vector']),
      latencyMs: this.embedLatencyMs + latencyMsFor(total),
      recallPrior: Object.freeze(recallPrior),
    });
  }

  /** Counts this embedder's vectors over current chunks; call after embedding (capabilities() stays synchronous). */
  async refreshCoverage(): Promise<number> {
    if (!this.options.available) return 0;
    const [row] = await this.database.query<{ count: number }>(sql`
      select count(*)::int as count from chunk_embeddings join chunks on chunks.id = chunk_embeddings.chunk_id
      where ${SEARCHED_CHUNKS} and chunk_embeddings.embedder_id = ${this.embedder.id}`);
    this.embeddedChunks = Number(row?.count ?? 0);
    return this.embeddedChunks;
  }

  async search(query: RetrievalQuery): Promise<readonly Hit[]> {
    const k = clampK(query.k);
    if (!this.options.available || k === 0 || query.sources.length === 0 || query.text.trim().length === 0) return [];
    query.signal?.throwIfAborted();
    const started = performance.now();
    const [vector] = await this.embedder.embed([query.text], query.signal ? { signal: query.signal } : {});
    query.signal?.throwIfAborted();
    this.embedLatencyMs = 0.8 * this.embedLatencyMs + 0.2 * (performance.now() - started);
    if (!vector || isZeroVector(vector)) return [];
    const iterative = await this.supportsIterativeScan();
    const rows = await this.database.db.transaction(async (tx) => {
      // Without these an HNSW scan yields ef_search (40) candidates and the source filter may
      // leave fewer than k. relaxed_order, not strict_order: strict drops every tuple found
      // after a farther one was returned, and a resumed scan finds such tuples (in
      // dense-retriever.test.ts 2 of 30 index builds lost one of the 8 `runbooks` rows so); the
      // outer ORDER BY restores the exact order of the k.
      if (iterative) await tx.execute(sql`select set_config('hnsw.iterative_scan', 'relaxed_order', true), set_config('hnsw.ef_search', ${String(Math.max(40, k))}, true)`);
      const approximate = rowsOf<ChunkHitRow>(await tx.execute(this.nearestChunks(vector, query.sources, k, 'index')));
      if (approximate.length === k) return approximate;
      // Fewer than k can mean the graph walk ran out rather than the matches: an HNSW graph is
      // not always connected (near-duplicate clusters prune the links out of their region: in
      // dense-retriever.test.ts 17 of 85 index builds left every `runbooks` chunk unreachable),
      // and the walk stops at hnsw.max_scan_tuples. A user filtering to one source must still
      // get its hits, so rank the requested sources exactly. Either few visited rows passed the
      // filter (a selective one) or the sources hold fewer than k vectors: few rows to read.
      return rowsOf<ChunkHitRow>(await tx.execute(this.nearestChunks(vector, query.sources, k, 'exact')));
    });
    query.signal?.throwIfAborted();
    // Cosine ≤ 0 (distance ≥ 1) is no evidence, and drops the NaN a zero vector yields.
    return toHits(rows.filter((row) => Number(row.score) > 0), this.method);
  }

  /**
   * The k nearest current chunks of `sources`. 'index' repeats the partial index's expression
   * (the cast) and predicate (the embedder-id literal), or the planner cannot use it; 'exact'
   * leaves the cast off so it cannot, and ranks every chunk the source filter admits.
   */
  private nearestChunks(vector: Float32Array, sources: readonly string[], k: number, path: 'index' | 'exact'): SQL {
    const cast = path === 'index' ? `::vector(${vector.length})` : '::vector';
    const column = sql.raw(path === 'index' ? `chunk_embeddings.embedding${cast}` : 'chunk_embeddings.embedding');
    // `distance + 0`, as pgvector's README advises for relaxed_order: the planner must not take
    // the index scan's approximate order for a sorted one.
    return sql`
      select ranked.id, sources.name as source_name, sources.kind as source_kind, ranked.version_id,
             ranked.title, ranked.body, ranked.locator, ranked.tokens, ranked.sensitive, 1 - ranked.distance as score
      from (
        select chunks.id, chunks.source_id, chunks.version_id, chunks.title, chunks.body, chunks.locator, chunks.tokens, chunks.sensitive,
               (${column} <=> ${toVectorLiteral(vector)}${sql.raw(cast)})::float8 as distance
        from chunk_embeddings
        join chunks on chunks.id = chunk_embeddings.chunk_id
        where chunk_embeddings.embedder_id = ${sql.raw(quoteLiteral(this.embedder.id))} and ${currentChunksOf(sources)}
        order by distance asc
        limit ${sql.raw(String(k))}
      ) ranked
      join sources on sources.id = ranked.source_id
      order by ranked.distance + 0 asc, ranked.id asc`;
  }

  private supportsIterativeScan(): Promise<boolean> {
    this.iterativeScan ??= this.database
      .query<{ version: string | null }>(sql`select extversion as version from pg_extension where extname = 'vector'`)
      .then(([row]) => {
        const [major = 0, minor = 0] = (row?.version ?? '0').split('.').map(Number);
        return major > ITERATIVE_SCAN_FROM[0] || (major === ITERATIVE_SCAN_FROM[0] && minor >= ITERATIVE_SCAN_FROM[1]);
      });
    return this.iterativeScan;
  }
}

/**
 * Milliseconds for the pgvector part: measured on PGlite 0.5.14 (2 cores, loaded machine) over
 * SciFact's 5,183 abstracts, top-10 with query embedding took p50 2.7 ms, p95 7.3 ms; HNSW grows
 * about logarithmically, so large corpora are overestimated.
 */
const latencyMsFor = (chunkCount: number): number => 2 + chunkCount / 2000;

function rowsOf<Row>(result: unknown): Row[] {
  if (Array.isArray(result)) return [...result] as Row[];
  return ((result as { rows?: Row[] }).rows ?? []) as Row[];
}
