/**
 * Fits what fusing two methods' rankings is worth, per intent class, from labelled query records
 * (issue 16): the runtime's reciprocal-rank fusion of the two rankings is scored like any method,
 * and the fitted statistic is Σ fused / Σ better member over the class's queries, shrunk toward 1
 * (no gain) like the method ratios. A ratio above 1 is fusion's measured gain over the member the
 * planner would otherwise run alone; at or below 1 the fused plan is never rated above that member.
 * The better member is the one with the larger Σ score over the class's fitting queries of each set.
 */
import { FITTED_METHODS, MIN_CLASS_QUERIES, PRIOR_PSEUDO_QUERIES } from '../../server/adapters/retrievers/fitted-prior-ratios';
import type { FusionRatioTable } from '../../server/adapters/retrievers/fitted-fusion-ratios';
import { type QueryRecord, scoreRanking } from './query-records';

/** The runtime's fuse node: RRF with k = 60 over each retrieve node's list (graph-builder.ts). */
export const FUSION_RRF_K = 60;

/** Reciprocal-rank fusion of ranked document ids, as rrf-fusion.ts fuses hits (ties by id). */
export function fuseRankings(lists: readonly (readonly string[])[], rrfK = FUSION_RRF_K): string[] {
  const scores = new Map<string, number>();
  for (const list of lists) list.forEach((id, index) => scores.set(id, (scores.get(id) ?? 0) + 1 / (rrfK + index + 1)));
  return [...scores].sort((left, right) => right[1] - left[1] || left[0].localeCompare(right[0])).map(([id]) => id);
}

/** One method's ranking and score for a record (rerank's from the out-of-fold reranker), or undefined. */
export type RankingOf = (record: QueryRecord, method: string) => { readonly ranked: readonly string[]; readonly score: number } | undefined;

/** Rankings as the records hold them; `rerank` only from `outOfFold` (a reranker never scored on its training queries). */
export function recordRankings(outOfFold: ReadonlyMap<string, readonly string[]>): RankingOf {
  return (record, method) => {
    if (method === 'rerank') {
      const ranked = outOfFold.get(`${record.set}/${record.id}`);
      return ranked ? { ranked, score: scoreRanking(record.metric, ranked, new Set(record.gold)) } : undefined;
    }
    const ranked = record.rankings?.[method];
    return ranked && record.scores[method] !== undefined ? { ranked, score: record.scores[method] } : undefined;
  };
}

const sum = (values: readonly number[]): number => values.reduce((total, value) => total + value, 0);

/**
 * pair key ("a+b", sorted) → intent class → ratio, for every pair of `methods` with a fitted
 * method in it (FITTED_METHODS) and every class
 * with at least MIN_CLASS_QUERIES fitting queries that have both rankings (fewer: no entry, the
 * cost model's prior formula stands).
 */
export function fitFusionRatios(records: readonly QueryRecord[], methods: readonly string[], rankingOf: RankingOf): FusionRatioTable {
  const table: Record<string, Record<string, number>> = {};
  const classes = [...new Set(records.map((record) => record.intent))].sort();
  const sorted = [...methods].sort();
  for (let first = 0; first < sorted.length; first++) {
    for (let second = first + 1; second < sorted.length; second++) {
      const pair = [sorted[first], sorted[second]];
      // Only fitted methods report fusion ratios (fitted-fusion-ratios.ts); a pair of others would go unread.
      if (!pair.some((method) => (FITTED_METHODS as readonly string[]).includes(method))) continue;
      for (const intent of classes) {
        const rows = records
          .filter((record) => record.intent === intent)
          .map((record) => ({ record, members: pair.map((method) => rankingOf(record, method)) }))
          .filter((row) => row.members.every((member) => member !== undefined));
        if (rows.length < MIN_CLASS_QUERIES) continue;
        // The better member per set: a class spans corpora, and where the members' order differs
        // between them (graph above rm3 on Wikipedia, below it on SciFact) a pooled comparison would
        // credit fusion with the gain of switching members.
        const better = new Map<string, number>();
        for (const set of new Set(rows.map((row) => row.record.set))) {
          const own = rows.filter((row) => row.record.set === set);
          better.set(set, sum(own.map((row) => row.members[0]!.score)) >= sum(own.map((row) => row.members[1]!.score)) ? 0 : 1);
        }
        const fused = rows.map((row) => scoreRanking(row.record.metric, fuseRankings(row.members.map((member) => member!.ranked)), new Set(row.record.gold)));
        const best = rows.map((row) => row.members[better.get(row.record.set)!]!.score);
        const mean = sum(best) / best.length;
        // (Σ fused + n₀·μ) / (Σ best + n₀·μ): shrunk toward "fusion neither gains nor loses".
        const ratio = (sum(fused) + PRIOR_PSEUDO_QUERIES * (mean || 0.5)) / (sum(best) + PRIOR_PSEUDO_QUERIES * (mean || 0.5));
        (table[pair.join('+')] ??= {})[intent] = Number(ratio.toFixed(4));
      }
    }
  }
  return Object.freeze(Object.fromEntries(Object.entries(table).map(([pair, ratios]) => [pair, Object.freeze(ratios)])));
}
