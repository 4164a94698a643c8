import { RERANK_FEATURES } from './rerank-features';

/** A linear scoring function over RERANK_FEATURES, with where it came from. */
export interface RerankModel {
  readonly id: string;
  /** One weight per feature, in RERANK_FEATURES order. */
  readonly weights: readonly number[];
  /** Embedder whose cosines the weights were trained on; the cosine feature is used only with it. */
  readonly cosineEmbedderId?: string;
  /**
   * Mean out-of-fold gain over bm25's ranking (nDCG@10 / Recall@5) on the data it was fitted on:
   * the planner prefers the rerank retriever only while this is positive (issue 16). Unknown = not preferred.
   */
  readonly oofGain?: number;
}

export function scoreOf(model: RerankModel, features: Float64Array): number {
  let score = 0;
  for (let index = 0; index < features.length; index++) score += model.weights[index] * features[index];
  return score;
}

const weightsOf = (byName: Readonly<Record<string, number>>): readonly number[] => Object.freeze(RERANK_FEATURES.map((name) => byName[name] ?? 0));

/** bm25's own order: the model with every other weight at zero, for comparison and as a fallback. */
export const BM25_ORDER_MODEL: RerankModel = Object.freeze({ id: 'bm25-order', weights: weightsOf({ bm25: 1 }) });

/**
 * Trained by bench/retrieval/train-reranker.ts on BEIR SciFact train (809 claims, head 30 of bm25
 * with letter compounds split, pairwise logistic loss, L2 1e-3), weights scaled to bm25 = 1.
 * nDCG@10 on that split: first stage 0.702; this model 0.715 trained and scored on all of it,
 * 0.7125 / 0.7128 / 0.7136 held out (5-fold cross-validation, three shuffles), so the gain is not
 * memorised. What it learned: numbers in a claim ("10%", "6 months") match by accident and weigh
 * less; identifiers ("NT5C2", "6MP"), acronyms and rare terms weigh more; a title or one
 * sentence-sized window holding the claim's terms and a close SIF vector count beyond bm25.
 */
/*
 * Kept over a model fitted on all three training splits because the out-of-fold comparison said so
 * (bench/retrieval/fit-priors.ts, RESULTS.md "Out of fold"): gain over bm25 out of sample, summed
 * over queries, 19.8 for this one (SciFact 5-fold +0.0191 × 809, MuSiQue +0.0533 × 100 and HotpotQA
 * −0.0100 × 100, both never seen) against 16.8 for the pooled fit (5-fold over the pooled queries:
 * SciFact +0.0133, MuSiQue +0.0558, HotpotQA +0.0050).
 */
export const DEFAULT_RERANK_MODEL: RerankModel = Object.freeze({
  id: 'scifact-train-sif-v1',
  // SciFact train, 5-fold (seed 7): nDCG@10 0.7136 against bm25's 0.6945 on the same records.
  oofGain: 0.0191,
  weights: weightsOf({ bm25: 1, numeric: -0.6054, alphanumeric: 0.5092, acronym: 0.2383, rareTerm: 0.3112, repeatedTerm: -0.031, leadingTerm: 0.1132, title: 0.7069, window: 0.7275, cosine: 0.5807 }),
  cosineEmbedderId: 'sif-sg-100d',
});

/** The same training without the cosine feature, for stores without those vectors: 0.7104 on all of SciFact train, 0.7089 / 0.7088 / 0.7085 held out. */
export const LEXICAL_RERANK_MODEL: RerankModel = Object.freeze({
  id: 'scifact-train-lexical-v1',
  // SciFact train, 5-fold (seed 7), the same training without cosine: +0.0139 over bm25 (fit-priors.ts).
  oofGain: 0.0139,
  weights: weightsOf({ bm25: 1, numeric: -0.6872, alphanumeric: 0.475, acronym: 0.0914, rareTerm: 0.2595, repeatedTerm: -0.1139, leadingTerm: 0.0966, title: 0.6543, window: 0.5463 }),
});
