/**
 * Fits what the planner's method choice rests on from labelled query records: the reranker's
 * weights (pairwise logistic, pairwise-trainer.ts) with their out-of-fold gain over bm25, and each
 * fitted method's recall-prior ratio to bm25 per intent class (fitted-prior-ratios.ts says how the
 * ratios are used). Pure: the bench calls it once per fold with the other folds' records.
 */
import { FITTED_METHODS, type FittedMethod, MIN_CLASS_QUERIES, PRIOR_PSEUDO_QUERIES, ratioTarget } from '../../server/adapters/retrievers/fitted-prior-ratios';
import { RERANK_FEATURES } from '../../server/adapters/retrievers/rerank-features';
import { rankWith, shuffled, type TrainOptions, trainPairwise } from './pairwise-trainer';
import type { FusionRatioTable } from '../../server/adapters/retrievers/fitted-fusion-ratios';
import { fitFusionRatios, recordRankings } from './fusion-fitting';
import { type QueryRecord, scoreRanking, trainingQueryOf } from './query-records';

export const BASELINE_METHOD = 'bm25';
/** As train-reranker.ts trains the shipped model ("with cosine"). */
export const RERANK_TRAINING: TrainOptions = Object.freeze({ l2: 1e-3, epochs: 400, learningRate: 1, use: RERANK_FEATURES.map((_, index) => index) });

export interface CrossValidation {
  readonly folds: number;
  readonly seed: number;
}

export const DEFAULT_CROSS_VALIDATION: CrossValidation = Object.freeze({ folds: 5, seed: 7 });

export interface FittedReranker {
  readonly weights: readonly number[];
  /** Mean over the fitting queries of (reranked out of fold − bm25), in the records' metric. */
  readonly oofGain: number;
  readonly queries: number;
}

export interface FittedPriors {
  /** method → intent class → ratio to bm25's prior. */
  readonly ratios: Readonly<Record<FittedMethod, Readonly<Record<string, number>>>>;
  /** Pair → intent class → fused / better member (fusion-fitting.ts); pairs without rankings in the records have none. */
  readonly fusion: FusionRatioTable;
  /** Queries per intent class among the fitting records. */
  readonly classSizes: Readonly<Record<string, number>>;
  readonly reranker?: FittedReranker;
  readonly queries: number;
}

const keyOf = (record: QueryRecord): string => `${record.set}/${record.id}`;

/** Methods whose rankings the records hold (rerank's come from the out-of-fold reranker instead). */
function fusableMethods(records: readonly QueryRecord[]): string[] {
  const methods = new Set<string>(records.some((record) => record.head) ? ['rerank'] : []);
  for (const record of records) for (const method of Object.keys(record.rankings ?? {})) if (method !== 'rerank' && method !== 'planner') methods.add(method);
  return [...methods];
}

/** record key → fold, folds by query (a seeded shuffle dealt round-robin), the same on every run. */
export function foldsOf(records: readonly QueryRecord[], validation: CrossValidation): Map<string, number> {
  return new Map(shuffled(records.map(keyOf), validation.seed).map((key, index) => [key, index % validation.folds]));
}

/** Each record's ranking by a reranker trained on the other folds (records without a head are left out). */
export function rerankRankingsOutOfFold(records: readonly QueryRecord[], validation: CrossValidation, training: TrainOptions = RERANK_TRAINING): Map<string, string[]> {
  const withHeads = records.filter((record) => record.head);
  const folds = foldsOf(withHeads, validation);
  const rankings = new Map<string, string[]>();
  for (let fold = 0; fold < validation.folds; fold++) {
    const train = withHeads.filter((record) => folds.get(keyOf(record)) !== fold).map((record) => trainingQueryOf(record)!);
    const held = withHeads.filter((record) => folds.get(keyOf(record)) === fold);
    if (train.length === 0 || held.length === 0) continue;
    const weights = trainPairwise(train, RERANK_FEATURES.length, training);
    for (const record of held) rankings.set(keyOf(record), rankWith(trainingQueryOf(record)!, weights));
  }
  return rankings;
}

/** Each record's score under a reranker trained on the other folds (records without a head are left out). */
export function rerankOutOfFold(records: readonly QueryRecord[], validation: CrossValidation, training: TrainOptions = RERANK_TRAINING): Map<string, number> {
  const byKey = new Map(records.map((record) => [keyOf(record), record]));
  return new Map([...rerankRankingsOutOfFold(records, validation, training)].map(([key, ranked]) => [key, scoreRanking(byKey.get(key)!.metric, ranked, new Set(byKey.get(key)!.gold))]));
}

/**
 * Σ method / Σ bm25 over a class's queries, shrunk toward the target: (S_m + n₀·t·μ) / (S_b + n₀·μ),
 * μ = the class's mean bm25 score (the pooled mean when the class's bm25 scores are all zero).
 */
export function shrunkRatio(methodScores: readonly number[], baselineScores: readonly number[], target: number, pseudoQueries = PRIOR_PSEUDO_QUERIES, fallbackMean = 0.5): number {
  const sum = (values: readonly number[]) => values.reduce((total, value) => total + value, 0);
  const baseline = sum(baselineScores);
  const mu = baseline > 0 ? baseline / baselineScores.length : fallbackMean;
  return (sum(methodScores) + pseudoQueries * target * mu) / (baseline + pseudoQueries * mu);
}

export function fitPriors(records: readonly QueryRecord[], validation: CrossValidation = DEFAULT_CROSS_VALIDATION): FittedPriors {
  const heads = records.map(trainingQueryOf).filter((query) => query !== undefined);
  const oofRankings = heads.length > 0 ? rerankRankingsOutOfFold(records, validation) : new Map<string, string[]>();
  const byKey = new Map(records.map((record) => [keyOf(record), record]));
  const oof = new Map([...oofRankings].map(([key, ranked]) => [key, scoreRanking(byKey.get(key)!.metric, ranked, new Set(byKey.get(key)!.gold))]));
  const gains = records.filter((record) => oof.has(keyOf(record))).map((record) => oof.get(keyOf(record))! - (record.scores[BASELINE_METHOD] ?? 0));
  const reranker: FittedReranker | undefined =
    heads.length > 0 ? { weights: trainPairwise(heads, RERANK_FEATURES.length, RERANK_TRAINING), oofGain: gains.reduce((total, gain) => total + gain, 0) / gains.length, queries: heads.length } : undefined;
  // rerank is judged by its out-of-fold scores; the other methods learn nothing from the labels.
  const scoreOf = (record: QueryRecord, method: FittedMethod): number | undefined => (method === 'rerank' && oof.size > 0 ? oof.get(keyOf(record)) : record.scores[method]);
  const pooledMean = records.reduce((total, record) => total + (record.scores[BASELINE_METHOD] ?? 0), 0) / Math.max(1, records.length);
  const classes = [...new Set(records.map((record) => record.intent))].sort();
  const classSizes = Object.fromEntries(classes.map((intent) => [intent, records.filter((record) => record.intent === intent).length]));
  const ratios = Object.fromEntries(
    FITTED_METHODS.map((method) => {
      const byClass = classes.map((intent) => {
        const scored = records.filter((record) => record.intent === intent && scoreOf(record, method) !== undefined && record.scores[BASELINE_METHOD] !== undefined);
        const shrunk = shrunkRatio(scored.map((record) => scoreOf(record, method)!), scored.map((record) => record.scores[BASELINE_METHOD]), ratioTarget(method, intent), PRIOR_PSEUDO_QUERIES, pooledMean);
        const ratio = scored.length < MIN_CLASS_QUERIES ? Math.min(shrunk, ratioTarget(method, intent)) : shrunk;
        // A reranker whose out-of-fold gain is not positive is not preferred anywhere (issue 16).
        return [intent, method === 'rerank' && !(reranker && reranker.oofGain > 0) ? Math.min(1, ratio) : ratio] as const;
      });
      return [method, Object.freeze(Object.fromEntries(byClass))];
    }),
  ) as Record<FittedMethod, Readonly<Record<string, number>>>;
  const fusion = fitFusionRatios(records, fusableMethods(records), recordRankings(oofRankings));
  return Object.freeze({ ratios: Object.freeze(ratios), fusion, classSizes: Object.freeze(classSizes), ...(reranker ? { reranker } : {}), queries: records.length });
}
