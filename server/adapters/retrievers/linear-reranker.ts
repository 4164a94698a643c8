import { sql } from 'drizzle-orm';
import type { Database } from '../../../db/client';
import type { EmbedderPlugin } from '../../runtime/contracts/embedder';
import { RERANKER_CONTRACT, type RerankerCapabilities, type RerankerPlugin, type RerankRequest } from '../../runtime/contracts/reranker';
import type { RetrieverCapabilities } from '../../runtime/contracts/retriever';
import type { Hit } from '../../runtime/types';
import { isZeroVector, toVectorLiteral } from '../embeddings/embedding-table';
import { extractTerms, toBm25Text } from './query-terms';
import { keepFirstStageOrderWithinLogs } from './log-window-order';
import { RerankCorpusFigures } from './rerank-corpus-figures';
import { type Candidate, candidateFeatures, type ParsedToken, queryTerms, scanTsvector } from './rerank-features';
import { DEFAULT_RERANK_MODEL, LEXICAL_RERANK_MODEL, type RerankModel, scoreOf } from './rerank-model';

export interface LinearRerankerOptions {
  /** Weights used when the cosine feature is available (the embedder matches the model's). */
  readonly model: RerankModel;
  /** Weights used without it. */
  readonly lexicalModel: RerankModel;
  /** The dense retriever whose stored vectors give the cosine feature (its embedder must be the model's). */
  readonly dense?: { readonly embedder: EmbedderPlugin; capabilities(): RetrieverCapabilities };
  /** Current chunk count (CorpusStats), so corpus figures refresh after an ingest without a count query. */
  readonly corpusSize?: () => number;
}

/**
 * Milliseconds over the first stage: one statement (query analysis, the head's stored vectors,
 * titles, cosines) plus the features; measured p50 4.0 ms, p95 5.5 ms over SciFact's head of 30
 * on this 2-core machine.
 */
export const LINEAR_RERANK_LATENCY_MS = 4;

/**
 * "HIV-positive" → "HIV positive": the english parser indexes a letter-letter compound whole and
 * in parts, so a query holding one counts its words twice and ranks documents that spell it
 * differently lower. Measured through pg_textsearch on SciFact train: bm25's nDCG@10 0.695 →
 * 0.702 with compounds split. Letter-digit compounds ("caspase-11") parse as a word and a signed
 * number, with nothing counted twice, and are left alone.
 */
export const splitLetterCompounds = (text: string): string => text.replace(/(?<=\p{L})-(?=\p{L})/gu, ' ');

export interface HeadFeatures {
  /** Feature vectors of the rescored head (the first `topN` hits), in hit order; empty below 2 hits. */
  readonly features: readonly Float64Array[];
  readonly model: RerankModel;
}

/**
 * The trained linear model as a Reranker: per-term-class bm25 shares, title match, best-window
 * proximity and, with the embedder it was trained with, the dense cosine (rerank-features.ts).
 * Trained on SciFact train by bench/retrieval/train-reranker.ts over bm25's head; weights and
 * their cross-validated figures in rerank-model.ts.
 */
export class LinearReranker implements RerankerPlugin {
  readonly contract = RERANKER_CONTRACT;
  readonly method = 'linear';
  readonly options: LinearRerankerOptions;
  private readonly figures: RerankCorpusFigures;

  constructor(
    private readonly database: Database,
    options: Partial<LinearRerankerOptions> = {},
  ) {
    this.options = Object.freeze({ model: DEFAULT_RERANK_MODEL, lexicalModel: LEXICAL_RERANK_MODEL, ...options });
    this.figures = new RerankCorpusFigures(database, options.corpusSize);
  }

  capabilities(): RerankerCapabilities {
    // The bm25 feature is each hit's score over the head's best: fitted to bm25's scores only.
    return Object.freeze({ method: this.method, available: true, latencyMs: LINEAR_RERANK_LATENCY_MS, costUsdPerQuery: 0, tokensPerQuery: 0, sendsPassagesOffMachine: false, trainedOn: 'bm25' });
  }

  async rerank(request: RerankRequest): Promise<readonly Hit[]> {
    const { features, model } = await this.scoreHead(request);
    const head = request.hits.slice(0, features.length).map((hit, index) => ({ hit, score: scoreOf(model, features[index]), order: index }));
    head.sort((a, b) => b.score - a.score || a.order - b.order);
    keepFirstStageOrderWithinLogs(head);
    // The tail keeps first-stage order below the head, on the same scale.
    const floor = head.length > 0 ? head[head.length - 1].score : 0;
    const tail = request.hits.slice(features.length).map((hit, index) => ({ hit, score: floor - (index + 1) * 1e-6 }));
    return Object.freeze([...head, ...tail].map((entry, index) => Object.freeze({ ...entry.hit, score: entry.score, rank: index + 1, method: this.method })));
  }

  /** The features of the request's head and the model that scores them; what rerank() orders by, exposed for training. */
  async scoreHead(request: Pick<RerankRequest, 'text' | 'identifiers' | 'hits' | 'topN' | 'signal'>): Promise<HeadFeatures> {
    const headSize = Math.min(request.hits.length, Math.max(0, Math.floor(request.topN)));
    if (headSize < 2) return { features: [], model: this.options.lexicalModel };
    const head = request.hits.slice(0, headSize);
    const text = splitLetterCompounds(request.text);
    const cosineVector = await this.cosineVector(request.text, request.signal);
    request.signal?.throwIfAborted();
    // Analyse exactly the text the bm25 retriever is sent, so term counts match its scoring.
    const { tokens, candidates } = await this.analyse(toBm25Text(extractTerms(text, request.identifiers)), head, cosineVector);
    const terms = queryTerms(tokens);
    const wanted = new Set(terms.map((term) => term.lexeme));
    const corpus = await this.figures.figures();
    const byId = new Map(candidates.map((candidate) => [candidate.id, candidate]));
    const features = head.map((hit) => {
      const row = byId.get(hit.chunkId);
      const scanned = row ? scanTsvector(row.positions, wanted) : { positions: new Map(), length: 0 };
      const candidate: Candidate = {
        positions: scanned.positions,
        length: scanned.length,
        titleLexemes: new Set(row ? scanTsvector(row.title, wanted).positions.keys() : []),
        score: hit.score,
        ...(row?.cosine === null || row?.cosine === undefined ? {} : { cosine: Number(row.cosine) }),
      };
      return candidateFeatures(terms, candidate, head[0].score, corpus);
    });
    return { features, model: cosineVector ? this.options.model : this.options.lexicalModel };
  }

  private async cosineVector(text: string, signal: AbortSignal | undefined): Promise<Float32Array | undefined> {
    const embedder = this.options.dense?.embedder;
    // Without vectors for this embedder (no pgvector, nothing embedded yet) the feature is unknown.
    if (!embedder || embedder.id !== this.options.model.cosineEmbedderId || !this.options.dense?.capabilities().available) return undefined;
    // The signal reaches a provider embedder's call: a timed-out rerank does not leave it running.
    const [vector] = await embedder.embed([text], signal ? { signal } : {});
    return vector && !isZeroVector(vector) ? vector : undefined;
  }

  /** One round trip: the query's ts_debug rows and the head's stored vectors, title lexemes and cosines. */
  private async analyse(analysed: string, head: readonly Hit[], vector: Float32Array | undefined): Promise<{ tokens: ParsedToken[]; candidates: CandidateRow[] }> {
    const ids = JSON.stringify(head.map((hit) => hit.chunkId));
    const dimensions = sql.raw(String(vector?.length ?? 0));
    const cosine = vector
      ? sql`(select 1 - (embeddings.embedding::vector(${dimensions}) <=> ${toVectorLiteral(vector)}::vector(${dimensions}))
             from chunk_embeddings embeddings where embeddings.chunk_id = chunks.id and embeddings.embedder_id = ${this.options.dense!.embedder.id})::float8`
      : sql`null::float8`;
    const [row] = await this.database.query<{ tokens: string; candidates: string }>(sql`
      select
        (select coalesce(json_agg(json_build_object('alias', alias, 'token', token, 'lexemes', lexemes)), '[]')::text from ts_debug('english', ${analysed})) as tokens,
        (select coalesce(json_agg(json_build_object('id', chunks.id, 'positions', coalesce(chunks.search_vector, to_tsvector('english'::regconfig, chunks.search_text))::text, 'title', to_tsvector('english', chunks.title)::text, 'cosine', ${cosine})), '[]')::text
         from chunks where chunks.id in (select jsonb_array_elements_text(${ids}::jsonb))) as candidates`);
    return { tokens: JSON.parse(row?.tokens ?? '[]') as ParsedToken[], candidates: JSON.parse(row?.candidates ?? '[]') as CandidateRow[] };
  }
}

interface CandidateRow {
  readonly id: string;
  readonly positions: string;
  readonly title: string;
  readonly cosine: number | null;
}
