/**
 * Pairwise logistic regression for a linear ranker (RankNet with a linear scorer, Burges et al.
 * 2005): for every (relevant, non-relevant) pair in one query's head, maximise
 * log σ(w·(x_relevant − x_other)). Features are standardised over the pair differences while
 * training and the weights mapped back, so the result applies to raw features.
 */
import { mean, ndcgAt } from './metrics';

export interface TrainingQuery {
  readonly id: string;
  /** Feature vectors of the head, in first-stage order. */
  readonly features: readonly Float64Array[];
  /** Document id per head position. */
  readonly documents: readonly string[];
  readonly gold: ReadonlySet<string>;
  /** First-stage ranking below the head (kept as it is by the reranker). */
  readonly tail: readonly string[];
}

export interface TrainOptions {
  readonly l2: number;
  readonly epochs: number;
  readonly learningRate: number;
  /** Indexes of the features to use; the others get weight 0. */
  readonly use: readonly number[];
}

export function trainPairwise(queries: readonly TrainingQuery[], width: number, options: TrainOptions): number[] {
  const pairs: Float64Array[] = [];
  for (const query of queries) {
    const relevant = query.documents.map((document) => query.gold.has(document));
    query.features.forEach((better, index) => {
      if (!relevant[index]) return;
      query.features.forEach((worse, other) => {
        if (relevant[other]) return;
        pairs.push(Float64Array.from(options.use, (feature) => better[feature] - worse[feature]));
      });
    });
  }
  const used = options.use.length;
  const scale = new Float64Array(used).fill(1);
  for (let feature = 0; feature < used; feature++) {
    const values = pairs.map((pair) => pair[feature]);
    const average = mean(values);
    const spread = Math.sqrt(mean(values.map((value) => (value - average) ** 2)));
    scale[feature] = spread > 1e-12 ? spread : 1;
  }
  const weights = new Float64Array(used);
  const gradient = new Float64Array(used);
  for (let epoch = 0; epoch < options.epochs; epoch++) {
    gradient.fill(0);
    for (const pair of pairs) {
      let margin = 0;
      for (let feature = 0; feature < used; feature++) margin += (weights[feature] * pair[feature]) / scale[feature];
      const pull = 1 / (1 + Math.exp(margin));
      for (let feature = 0; feature < used; feature++) gradient[feature] -= (pull * pair[feature]) / scale[feature];
    }
    for (let feature = 0; feature < used; feature++) {
      weights[feature] -= options.learningRate * (gradient[feature] / Math.max(1, pairs.length) + options.l2 * weights[feature]);
    }
  }
  const full = new Array<number>(width).fill(0);
  options.use.forEach((feature, index) => {
    full[feature] = weights[index] / scale[index];
  });
  return full;
}

/** The reranked document order of one query under `weights`. */
export function rankWith(query: TrainingQuery, weights: readonly number[]): string[] {
  const scored = query.features.map((features, index) => {
    let score = 0;
    for (let feature = 0; feature < features.length; feature++) score += weights[feature] * features[feature];
    return { document: query.documents[index], score, index };
  });
  scored.sort((a, b) => b.score - a.score || a.index - b.index);
  return [...scored.map((entry) => entry.document), ...query.tail];
}

export const meanNdcg = (queries: readonly TrainingQuery[], weights: readonly number[]): number => mean(queries.map((query) => ndcgAt(rankWith(query, weights), query.gold, 10)));

/** Deterministic shuffle (mulberry32), so folds are the same on every run. */
export function shuffled<T>(items: readonly T[], seed: number): T[] {
  let state = seed >>> 0;
  const random = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
  const copy = [...items];
  for (let index = copy.length - 1; index > 0; index--) {
    const other = Math.floor(random() * (index + 1));
    [copy[index], copy[other]] = [copy[other], copy[index]];
  }
  return copy;
}

/** k-fold cross-validated nDCG@10: train on k−1 folds, score the held-out fold, average over all queries. */
export function crossValidated(queries: readonly TrainingQuery[], width: number, options: TrainOptions, folds: number, seed: number): number {
  const order = shuffled(queries, seed);
  let total = 0;
  for (let fold = 0; fold < folds; fold++) {
    const held = order.filter((_, index) => index % folds === fold);
    const training = order.filter((_, index) => index % folds !== fold);
    const weights = trainPairwise(training, width, options);
    total += meanNdcg(held, weights) * held.length;
  }
  return total / queries.length;
}
