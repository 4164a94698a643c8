import type { Database } from '../../../db/client';
import { RETRIEVER_CONTRACT, type RetrievalQuery, type RetrieverCapabilities, type RetrieverPlugin } from '../../runtime/contracts/retriever';
import type { Hit } from '../../runtime/types';
import { clampK } from './chunk-hits';
import { LINEAR_RERANK_LATENCY_MS, LinearReranker, type LinearRerankerOptions, splitLetterCompounds } from './linear-reranker';
import { DEFAULT_RERANK_MODEL, LEXICAL_RERANK_MODEL, type RerankModel } from './rerank-model';

export { splitLetterCompounds } from './linear-reranker';

export interface RerankOptions extends LinearRerankerOptions {
  /** How many of the first stage's hits are rescored; the rest keep their order below them. */
  readonly topN: number;
}

/**
 * Head size: in the feature study on SciFact train (RESULTS.md) heads of 30 and 50 cross-validated
 * alike (nDCG@10 0.708 ± 0.002), and 30 reads fewer stored vectors per query.
 */
export const DEFAULT_RERANK_OPTIONS: Omit<RerankOptions, 'dense' | 'corpusSize'> = Object.freeze({ topN: 30, model: DEFAULT_RERANK_MODEL, lexicalModel: LEXICAL_RERANK_MODEL });

/**
 * Recall factor over the first stage's prior, per intent, from bench:retrieval against bm25:
 * Recall@5 ×1.045 on SciFact (conceptual claims), ×1.11 on MuSiQue and ×0.99 on HotpotQA
 * (multi-hop questions). Reranking the head moves evidence up; it finds nothing bm25 did not.
 */
const PRIOR_FACTOR: Readonly<Record<string, number>> = Object.freeze({ conceptual: 1.04, multi_hop: 1.05 });

export interface ScoredHead {
  readonly hits: readonly Hit[];
  /** Feature vectors of the rescored head (the first `topN` hits), in hit order. */
  readonly features: readonly Float64Array[];
  readonly model: RerankModel;
}

/**
 * The linear Reranker (linear-reranker.ts) over a first-stage retriever's top N (bm25 in the
 * default wiring, the stage its weights were trained on), as one retriever the planner can choose.
 */
export class RerankRetriever implements RetrieverPlugin {
  readonly contract = RETRIEVER_CONTRACT;
  readonly method = 'rerank';
  readonly options: RerankOptions;
  readonly reranker: LinearReranker;

  /** `reranker`: the instance registered as the `linear` Reranker plugin, when there is one (else built from `options`). */
  constructor(database: Database, private readonly firstStage: RetrieverPlugin, options: Partial<RerankOptions> = {}, reranker?: LinearReranker) {
    this.options = Object.freeze({ ...DEFAULT_RERANK_OPTIONS, ...(reranker ? reranker.options : {}), ...options });
    this.reranker = reranker ?? new LinearReranker(database, this.options);
  }

  capabilities(): RetrieverCapabilities {
    const first = this.firstStage.capabilities();
    return Object.freeze({
      method: this.method,
      available: first.available,
      ...(first.available ? {} : { unavailableReason: `${first.method} unavailable: ${first.unavailableReason ?? 'no reason given'}` }),
      requires: first.requires,
      latencyMs: first.latencyMs + LINEAR_RERANK_LATENCY_MS,
      recallPrior: Object.freeze(Object.fromEntries(Object.entries(first.recallPrior).map(([intent, prior]) => [intent, Math.min(1, (prior ?? 0) * (PRIOR_FACTOR[intent] ?? 1))]))),
      composedOf: Object.freeze([first.method, ...(first.composedOf ?? [])]),
      ...(first.sourceKinds ? { sourceKinds: first.sourceKinds } : {}),
    });
  }

  async search(query: RetrievalQuery): Promise<readonly Hit[]> {
    const k = clampK(query.k);
    if (k === 0) return [];
    const hits = await this.firstStageHits(query, Math.max(k, this.options.topN));
    query.signal?.throwIfAborted();
    const reranked = await this.reranker.rerank({ text: query.text, identifiers: query.identifiers, hits, topN: this.options.topN, signal: query.signal });
    query.signal?.throwIfAborted();
    return Object.freeze(reranked.slice(0, k).map((hit) => Object.freeze({ ...hit, method: this.method })));
  }

  /** First-stage hits and the features of their head; what search() ranks by, exposed for training. */
  async scoreHead(query: RetrievalQuery, depth: number): Promise<ScoredHead> {
    const hits = await this.firstStageHits(query, depth);
    const { features, model } = await this.reranker.scoreHead({ text: query.text, identifiers: query.identifiers, hits, topN: this.options.topN });
    return { hits, features, model };
  }

  private firstStageHits(query: RetrievalQuery, depth: number): Promise<readonly Hit[]> {
    return this.firstStage.search({ ...query, text: splitLetterCompounds(query.text), k: clampK(depth) });
  }
}
