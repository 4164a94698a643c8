import { sql } from 'drizzle-orm';
import type { Database } from '../../../db/client';
import { RETRIEVER_CONTRACT, type RetrievalQuery, type RetrieverCapabilities, type RetrieverPlugin } from '../../runtime/contracts/retriever';
import type { Hit } from '../../runtime/types';
import type { CorpusStats } from '../db/corpus-stats';
import { type ChunkHitRow, clampK, currentChunksOf, toHits } from './chunk-hits';
import { extractTerms, toWebsearchDisjunction } from './query-terms';

/**
 * Priors below BM25's on every class: cover density ranking has no IDF, so a frequent query word
 * weighs as much as a rare identifier. Placeholders for calibration, like every prior here.
 */
const RECALL_PRIOR = Object.freeze({ exact_id: 0.8, incident: 0.7, high_risk: 0.6, sensitive: 0.55, conceptual: 0.5, multi_hop: 0.4 });

/**
 * Milliseconds per query. Ranking reads the stored tsvector of every match, so cost follows the
 * match count, which grows with the corpus: measured on PGlite 0.5.14 (2 cores, loaded), top-20
 * over 10,000 chunks of ~950 characters took 8–22 ms depending on how many chunks matched.
 */
const latencyMsFor = (chunkCount: number): number => 3 + (2 * chunkCount) / 1000;

/**
 * PostgreSQL full-text search (ts_rank_cd over the GIN-indexed search_vector): needs no
 * extension, so it is the retriever that is always there.
 */
export class FulltextRetriever implements RetrieverPlugin {
  readonly contract = RETRIEVER_CONTRACT;
  readonly method = 'fulltext';

  constructor(
    private readonly database: Database,
    private readonly corpus: CorpusStats,
    /** Fills search vectors ingest left empty (pg_textsearch installed), so every current chunk is searchable. */
    private readonly fillPendingVectors?: () => Promise<unknown>,
  ) {}

  capabilities(): RetrieverCapabilities {
    return Object.freeze({
      method: this.method,
      available: true,
      requires: Object.freeze([]),
      latencyMs: latencyMsFor(this.corpus.currentChunks),
      recallPrior: RECALL_PRIOR,
    });
  }

  async search(query: RetrievalQuery): Promise<readonly Hit[]> {
    const k = clampK(query.k);
    const terms = extractTerms(query.text, query.identifiers);
    if (k === 0 || terms.length === 0 || query.sources.length === 0) return [];
    query.signal?.throwIfAborted();
    await this.fillPendingVectors?.();
    query.signal?.throwIfAborted();
    // Normalisation 1 divides by 1 + log(length): long chunks do not win by size alone.
    const rows = await this.database.query<ChunkHitRow>(sql`
      select chunks.id, sources.name as source_name, sources.kind as source_kind, chunks.version_id,
             chunks.title, chunks.body, chunks.locator, chunks.tokens, chunks.sensitive,
             ts_rank_cd(chunks.search_vector, search.query, 1)::float8 as score
      from chunks
      cross join (select websearch_to_tsquery('english', ${toWebsearchDisjunction(terms)}) as query) search
      join sources on sources.id = chunks.source_id
      where ${currentChunksOf(query.sources)} and chunks.search_vector @@ search.query
      order by score desc, chunks.id asc
      limit ${sql.raw(String(k))}`);
    query.signal?.throwIfAborted();
    return toHits(rows, this.method);
  }
}
