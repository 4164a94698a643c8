import { sql } from 'drizzle-orm';
import type { Database } from '../../../db/client';
import type { EmbedderPlugin } from '../../runtime/contracts/embedder';
import { RETRIEVER_CONTRACT, type RetrievalQuery, type RetrieverCapabilities, type RetrieverPlugin } from '../../runtime/contracts/retriever';
import type { Hit } from '../../runtime/types';
import { isZeroVector, toVectorLiteral } from '../embeddings/embedding-table';
import { clampK } from './chunk-hits';
import { extractTerms, toBm25Text } from './query-terms';
import { RerankCorpusFigures } from './rerank-corpus-figures';
import { type Candidate, candidateFeatures, type ParsedToken, queryTerms, scanTsvector } from './rerank-features';
import { DEFAULT_RERANK_MODEL, LEXICAL_RERANK_MODEL, type RerankModel, scoreOf } from './rerank-model';

export interface RerankOptions {
  /** How many of the first stage's hits are rescored; the rest keep their order below them. */
  readonly topN: number;
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
 * Head size: in the feature study on SciFact train (RESULTS.md) heads of 30 and 50 cross-validated
 * alike (nDCG@10 0.708 ± 0.002), and 30 reads fewer stored vectors per query.
 */
export const DEFAULT_RERANK_OPTIONS: Omit<RerankOptions, 'dense' | 'corpusSize'> = Object.freeze({ topN: 30, model: DEFAULT_RERANK_MODEL, lexicalModel: LEXICAL_RERANK_MODEL });

/**
 * Extra milliseconds over the first stage: one statement (query analysis, the head's stored
 * vectors, titles, cosines) plus the features; measured p50 4.0 ms, p95 5.5 ms over SciFact's
 * head of 30 on this 2-core machine.
 */
const RERANK_LATENCY_MS = 4;

/**
 * Recall factor over the first stage's prior, per intent, from bench:retrieval against bm25:
 * Recall@5 ×1.045 on SciFact (conceptual claims), ×1.11 on MuSiQue and ×0.99 on HotpotQA
 * (multi-hop questions). Reranking the head moves evidence up; it finds nothing bm25 did not.
 */
const PRIOR_FACTOR: Readonly<Record<string, number>> = Object.freeze({ conceptual: 1.04, multi_hop: 1.05 });

/**
 * "HIV-positive" → "HIV positive": the english parser indexes a letter-letter compound whole and
 * in parts, so a query holding one counts its words twice and ranks documents that spell it
 * differently lower. Measured through pg_textsearch on SciFact train: bm25's nDCG@10 0.695 →
 * 0.702 with compounds split. Letter-digit compounds ("caspase-11") parse as a word and a signed
 * number, with nothing counted twice, and are left alone.
 */
export const splitLetterCompounds = (text: string): string => text.replace(/(?<=\p{L})-(?=\p{L})/gu, ' ');

export interface ScoredHead {
  readonly hits: readonly Hit[];
  /** Feature vectors of the rescored head (the first `topN` hits), in hit order. */
  readonly features: readonly Float64Array[];
  readonly model: RerankModel;
}

/**
 * A Reranker over a first-stage retriever's top N (bm25 in the default wiring): a linear model
 * over per-term-class bm25 shares, title match, best-window proximity and, with the embedder it
 * was trained with, the dense cosine (rerank-features.ts). Trained on SciFact train by
 * bench/retrieval/train-reranker.ts; weights and their cross-validated figures in rerank-model.ts.
 */
export class RerankRetriever implements RetrieverPlugin {
  readonly contract = RETRIEVER_CONTRACT;
  readonly method = 'rerank';
  readonly options: RerankOptions;
  private readonly figures: RerankCorpusFigures;

  constructor(
    private readonly database: Database,
    private readonly firstStage: RetrieverPlugin,
    options: Partial<RerankOptions> = {},
  ) {
    this.options = Object.freeze({ ...DEFAULT_RERANK_OPTIONS, ...options });
    this.figures = new RerankCorpusFigures(database, options.corpusSize);
  }

  capabilities(): RetrieverCapabilities {
    const first = this.firstStage.capabilities();
    return Object.freeze({
      method: this.method,
      available: first.available,
      ...(first.available ? {} : { unavailableReason: `${first.method} unavailable: ${first.unavailableReason ?? 'no reason given'}` }),
      requires: first.requires,
      latencyMs: first.latencyMs + RERANK_LATENCY_MS,
      recallPrior: Object.freeze(Object.fromEntries(Object.entries(first.recallPrior).map(([intent, prior]) => [intent, Math.min(1, (prior ?? 0) * (PRIOR_FACTOR[intent] ?? 1))]))),
      composedOf: Object.freeze([first.method, ...(first.composedOf ?? [])]),
      ...(first.sourceKinds ? { sourceKinds: first.sourceKinds } : {}),
    });
  }

  async search(query: RetrievalQuery): Promise<readonly Hit[]> {
    const k = clampK(query.k);
    if (k === 0) return [];
    const { hits, features, model } = await this.scoreHead(query, Math.max(k, this.options.topN));
    const head = hits.slice(0, features.length).map((hit, index) => ({ hit, score: scoreOf(model, features[index]), order: index }));
    head.sort((a, b) => b.score - a.score || a.order - b.order);
    const floor = head.length > 0 ? head[head.length - 1].score : 0;
    const tail = hits.slice(features.length).map((hit, index) => ({ hit, score: floor - (index + 1) * 1e-6, order: 0 }));
    return Object.freeze([...head, ...tail].slice(0, k).map((entry, index) => Object.freeze({ ...entry.hit, score: entry.score, rank: index + 1, method: this.method })));
  }

  /** First-stage hits and the features of their head; what search() ranks by, exposed for training. */
  async scoreHead(query: RetrievalQuery, depth: number): Promise<ScoredHead> {
    const text = splitLetterCompounds(query.text);
    const hits = await this.firstStage.search({ ...query, text, k: clampK(depth) });
    const headSize = Math.min(hits.length, this.options.topN);
    if (headSize < 2) return { hits, features: [], model: this.options.lexicalModel };
    const head = hits.slice(0, headSize);
    const cosineVector = await this.cosineVector(query.text);
    // Analyse exactly the text the bm25 retriever sends, so term counts match its scoring.
    const { tokens, candidates } = await this.analyse(toBm25Text(extractTerms(text, query.identifiers)), head, cosineVector);
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
    return { hits, features, model: cosineVector ? this.options.model : this.options.lexicalModel };
  }

  private async cosineVector(text: string): Promise<Float32Array | undefined> {
    const embedder = this.options.dense?.embedder;
    // Without vectors for this embedder (no pgvector, nothing embedded yet) the feature is unknown.
    if (!embedder || embedder.id !== this.options.model.cosineEmbedderId || !this.options.dense?.capabilities().available) return undefined;
    const [vector] = await embedder.embed([text]);
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
