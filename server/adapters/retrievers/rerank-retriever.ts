import type { Database } from '../../../db/client';
import { RETRIEVER_CONTRACT, type RetrievalQuery, type RetrieverCapabilities, type RetrieverPlugin } from '../../runtime/contracts/retriever';
import type { Hit } from '../../runtime/types';
import { clampK } from './chunk-hits';
import { LINEAR_RERANK_LATENCY_MS, LinearReranker, type LinearRerankerOptions, splitLetterCompounds } from './linear-reranker';
import { FITTED_PRIOR_RATIOS, scaledRecallPrior } from './fitted-prior-ratios';
import { fusionCapability } from './fitted-fusion-ratios';
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
 * The first stage's prior scaled by rerank's fitted ratios (fitted-prior-ratios.ts), but only for a
 * model whose out-of-fold gain over bm25 is positive: otherwise no ratio above 1, so the planner,
 * seeing no gain, keeps the cheaper first stage (issue 16: a rerank model chosen for 266 of 300
 * held-out SciFact claims scored below plain bm25 there).
 */
export function rerankRecallPrior(first: RetrieverCapabilities['recallPrior'], model: RerankModel): RetrieverCapabilities['recallPrior'] {
  const preferred = (model.oofGain ?? 0) > 0;
  const ratios = preferred ? FITTED_PRIOR_RATIOS.rerank : Object.fromEntries(Object.entries(FITTED_PRIOR_RATIOS.rerank).map(([intent, ratio]) => [intent, Math.min(1, ratio ?? 1)]));
  return scaledRecallPrior(first, 'rerank', ratios);
}

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
      recallPrior: rerankRecallPrior(first.recallPrior, this.activeModel()),
      ...fusionCapability(this.method),
      composedOf: Object.freeze([first.method, ...(first.composedOf ?? [])]),
      ...(first.sourceKinds ? { sourceKinds: first.sourceKinds } : {}),
    });
  }

  /** The model search() ranks with: the cosine one when the dense vectors it was trained on are there. */
  private activeModel(): RerankModel {
    const { model, lexicalModel, dense } = this.reranker.options;
    return model.cosineEmbedderId !== undefined && dense?.embedder.id === model.cosineEmbedderId ? model : lexicalModel;
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
