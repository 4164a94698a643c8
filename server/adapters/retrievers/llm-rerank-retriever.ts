import type { ModelPlugin } from '../../runtime/contracts/model';
import { RETRIEVER_CONTRACT, type RetrievalQuery, type RetrieverCapabilities, type RetrieverPlugin } from '../../runtime/contracts/retriever';
import type { Hit } from '../../runtime/types';
import { clampK } from './chunk-hits';
import { DEFAULT_LLM_RERANK_OPTIONS, type LlmRerankCostProfile, LlmReranker, type LlmRerankerOptions, positional } from './llm-reranker';

export { DEFAULT_LLM_RERANK_OPTIONS, reorderHead, type LlmRerankCostProfile, type LlmRerankOutcome } from './llm-reranker';

/** First-stage hits graded by the model (`topN`; the rest keep their order below them), batching, deadline and withheld sources. */
export type LlmRerankOptions = LlmRerankerOptions;

/**
 * Recall factor over the first stage: RankGPT (Sun et al., EMNLP 2023, Table 2) reranking BM25's
 * top 100 lifted nDCG@10 averaged over 8 BEIR sets from 43.8 to 49.4 with gpt-3.5-turbo (×1.13).
 * Not yet measured in this repo; a reranker only reorders the head, so it finds nothing the first
 * stage did not.
 */
const PRIOR_FACTOR = 1.1;

/** Capabilities with the model tier that pays for them (cost and tokens per query are contract fields). */
export interface LlmRerankCapabilities extends RetrieverCapabilities {
  readonly costUsdPerQuery: number;
  readonly tokensPerQuery: number;
  readonly modelTier: string;
}

/**
 * The LLM Reranker (llm-reranker.ts) over a first-stage retriever's top N, as one retriever the
 * planner can choose. A failing model never fails the search: ungraded candidates keep their
 * first-stage slots.
 */
export class LlmRerankRetriever implements RetrieverPlugin {
  readonly contract = RETRIEVER_CONTRACT;
  readonly method = 'llm-rerank';
  readonly options: LlmRerankOptions;
  readonly reranker: LlmReranker;

  /** `grader`: a model tier, or the instance registered as the `llm` Reranker plugin (its options then grade). */
  constructor(
    private readonly firstStage: RetrieverPlugin,
    grader: ModelPlugin | LlmReranker,
    options: Partial<LlmRerankOptions> = {},
  ) {
    this.options = Object.freeze({ ...DEFAULT_LLM_RERANK_OPTIONS, ...(grader instanceof LlmReranker ? grader.options : {}), ...options });
    this.reranker = grader instanceof LlmReranker ? grader : new LlmReranker(grader, this.options);
  }

  costProfile(): LlmRerankCostProfile {
    return this.reranker.costProfile(this.options.topN);
  }

  capabilities(): LlmRerankCapabilities {
    const first = this.firstStage.capabilities();
    const profile = this.costProfile();
    const model = this.reranker.model;
    const modelAvailable = model.available ?? true;
    const unavailableReason = !first.available
      ? `${first.method} unavailable: ${first.unavailableReason ?? 'no reason given'}`
      : !modelAvailable
        ? `model tier ${model.tier} unavailable: ${model.unavailableReason ?? 'no reason given'}`
        : undefined;
    return Object.freeze({
      method: this.method,
      available: unavailableReason === undefined,
      ...(unavailableReason ? { unavailableReason } : {}),
      requires: first.requires,
      latencyMs: first.latencyMs + profile.modelLatencyMs,
      recallPrior: Object.freeze(Object.fromEntries(Object.entries(first.recallPrior).map(([intent, prior]) => [intent, Math.min(1, (prior ?? 0) * PRIOR_FACTOR)]))),
      // The planner cuts it under local-only policy and for sensitive goals (candidate-generator.ts).
      sendsPassagesOffMachine: !model.capabilities().local,
      ...(first.sourceKinds ? { sourceKinds: first.sourceKinds } : {}),
      composedOf: Object.freeze([first.method, ...(first.composedOf ?? [])]),
      costUsdPerQuery: profile.costUsdPerQuery,
      tokensPerQuery: profile.tokensPerQuery,
      modelTier: model.tier,
    });
  }

  async search(query: RetrievalQuery): Promise<readonly Hit[]> {
    const k = clampK(query.k);
    if (k === 0) return [];
    const hits = await this.firstStage.search({ ...query, k: Math.max(k, this.options.topN) });
    query.signal?.throwIfAborted();
    const reranked = await this.reranker.rerank({ text: query.text, identifiers: query.identifiers, hits, topN: this.options.topN, onSpend: query.onSpend, localOnly: query.localOnly, sensitiveSources: query.sensitiveSources, signal: query.signal, ...(query.admit ? { admit: query.admit } : {}) });
    // Positional scores over the k returned, as the search always gave them.
    return positional(reranked.slice(0, k), this.method);
  }
}
