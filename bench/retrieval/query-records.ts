/**
 * One labelled query as the prior fitting sees it: its set, the intent class the planner gives it,
 * every single method's score on it, and the reranker's head features (what training needs).
 * Written by `bench:retrieval --records FILE`, read back by `--fit-from` (leave one dataset out)
 * and by fit-priors.ts, so fitting across sets needs no second ingest.
 */
import { readFileSync } from 'node:fs';
import type { IntentAnalyzerPlugin } from '../../server/runtime/contracts/intent-analyzer';
import type { BeirDataset } from './beir-dataset';
import { ndcgAt, recallAt } from './metrics';
import type { MethodRun } from './method-runs';
import type { TrainingQuery } from './pairwise-trainer';

/** The acceptance metric: nDCG@10, or Recall@5 for multi-hop sets (those with gold answers). */
export type RecordMetric = 'ndcg@10' | 'recall@5';

export interface RerankHead {
  /** Feature vectors of the reranked head, in first-stage order. */
  readonly features: readonly (readonly number[])[];
  readonly documents: readonly string[];
  /** First-stage order below the head. */
  readonly tail: readonly string[];
}

export interface QueryRecord {
  readonly set: string;
  readonly id: string;
  readonly intent: string;
  readonly metric: RecordMetric;
  readonly gold: readonly string[];
  /** method → the metric of its ranking for this query. */
  readonly scores: Readonly<Record<string, number>>;
  readonly head?: RerankHead;
  /** method → its ranked document ids (RETRIEVAL_DEPTH deep), to fuse methods offline (fusion-fitting.ts). */
  readonly rankings?: Readonly<Record<string, readonly string[]>>;
}

export const metricOf = (dataset: BeirDataset): RecordMetric => (dataset.queries.some((query) => query.answers) ? 'recall@5' : 'ndcg@10');

export const scoreRanking = (metric: RecordMetric, ranked: readonly string[], gold: ReadonlySet<string>): number => (metric === 'ndcg@10' ? ndcgAt(ranked, gold, 10) : recallAt(ranked, gold, 5));

/** Per query, each method's score (a failed query scores as an empty ranking, as in the table). */
export function scoresByQuery(dataset: BeirDataset, runs: readonly MethodRun[]): Map<string, Record<string, number>> {
  const metric = metricOf(dataset);
  const scores = new Map(dataset.queries.map((query) => [query.id, {} as Record<string, number>]));
  for (const run of runs.filter((entry) => !entry.skipped)) {
    const ranked = new Map(run.runs.map((queryRun) => [queryRun.queryId, queryRun.ranked]));
    for (const query of dataset.queries) scores.get(query.id)![run.method] = scoreRanking(metric, ranked.get(query.id) ?? [], dataset.qrels.get(query.id)!);
  }
  return scores;
}

/** Per query, each single method's ranking (the planner's is not a method to fuse). */
export function rankingsByQuery(dataset: BeirDataset, runs: readonly MethodRun[]): Map<string, Record<string, readonly string[]>> {
  const rankings = new Map(dataset.queries.map((query) => [query.id, {} as Record<string, readonly string[]>]));
  for (const run of runs.filter((entry) => !entry.skipped && entry.method !== 'planner')) {
    for (const queryRun of run.runs) rankings.get(queryRun.queryId)![run.method] = queryRun.ranked;
  }
  return rankings;
}

/** The record as the pairwise trainer wants it (undefined without a head). */
export function trainingQueryOf(record: QueryRecord): TrainingQuery | undefined {
  if (!record.head) return undefined;
  return { id: `${record.set}/${record.id}`, features: record.head.features.map((row) => Float64Array.from(row)), documents: record.head.documents, tail: record.head.tail, gold: new Set(record.gold) };
}

/** Records files written by --records; the message names the file that is not one. */
export function readRecords(paths: readonly string[]): QueryRecord[] {
  return paths.flatMap((path) => {
    const parsed = JSON.parse(readFileSync(path, 'utf8')) as { records?: QueryRecord[] };
    if (!Array.isArray(parsed.records)) throw new Error(`${path}: not a records file written by bench:retrieval --records (no "records" array)`);
    return parsed.records;
  });
}

/**
 * Reused records of the scored set with the class this tree's analyzer gives each query: a record
 * keeps the class of the tree that collected it, but the held-out queries are planned with this
 * tree's analyzer, and a k-fold fit grouped by the old classes would rate methods for classes the
 * planner no longer puts those queries in. (Records of other sets carry no query text; they keep theirs.)
 */
export function reclassified(records: readonly QueryRecord[], dataset: BeirDataset, analyzer: IntentAnalyzerPlugin): QueryRecord[] {
  const textOf = new Map(dataset.queries.map((query) => [query.id, query.text]));
  return records.map((record) => {
    const text = textOf.get(record.id);
    const intent = text === undefined ? record.intent : analyzer.analyze(text).primary;
    return intent === record.intent ? record : { ...record, intent };
  });
}
