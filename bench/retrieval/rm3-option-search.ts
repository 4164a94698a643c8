/**
 * rm3's options (feedback documents, expansion terms, λ) chosen by k-fold cross-validation inside
 * the split (issue 11 point 8): each fold's queries are ranked with the grid point that scored best
 * on the OTHER folds, so the "rm3 (K-fold options)" row is an out-of-fold figure, not the grid's
 * maximum on the queries it reports. The grid is fixed here, before any set is scored; the
 * selection metric is nDCG@10 on every set (the figure RESULTS.md's rm3 table compares).
 */
import type { Database } from '../../db/client';
import { Rm3Retriever } from '../../server/adapters/retrievers/rm3-retriever';
import type { Rm3Options } from '../../server/adapters/retrievers/rm3-expansion';
import type { RetrievalQuery, RetrieverPlugin } from '../../server/runtime/contracts/retriever';
import type { Hit } from '../../server/runtime/types';
import { ndcgAt } from './metrics';
import { type MethodRun, type QueryRun, retrieverRunner, type RunEnvironment } from './method-runs';
import { shuffled } from './pairwise-trainer';

/** Around RM3's usual settings (Anserini: 10 documents, 10 terms, λ 0.5; ours 2 / 10 / 0.6). */
export const RM3_OPTION_GRID: readonly Rm3Options[] = Object.freeze(
  [1, 2, 3, 5, 10].flatMap((documents) => [5, 10, 20].flatMap((terms) => [0.5, 0.6, 0.7].map((originalWeight) => Object.freeze({ documents, terms, originalWeight, maxRepeats: 6 })))),
);

export const optionLabel = (options: Rm3Options): string => `${options.documents} docs / ${options.terms} terms / λ ${options.originalWeight}`;

/**
 * Per fold, the grid index with the best mean score over the other folds' queries (ties: the lower
 * index). `scores[grid][query]`; `folds[query]` in 0..k−1.
 */
export function chooseByFolds(scores: readonly (readonly number[])[], folds: readonly number[], k: number): number[] {
  const chosen: number[] = [];
  for (let fold = 0; fold < k; fold++) {
    let best = 0;
    let bestMean = -Infinity;
    scores.forEach((row, index) => {
      let sum = 0;
      let count = 0;
      row.forEach((score, query) => {
        if (folds[query] === fold) return;
        sum += score;
        count += 1;
      });
      const value = count === 0 ? -Infinity : sum / count;
      if (value > bestMean) [best, bestMean] = [index, value];
    });
    chosen.push(best);
  }
  return chosen;
}

/** One set's grid: the mean nDCG@10 of every grid point over the set's queries (index = grid index). */
export interface SetGrid {
  readonly set: string;
  readonly means: readonly number[];
}

export interface SetOutChoice {
  readonly heldOut: string;
  /** The grid index with the best mean, over the OTHER sets, of their per-set means (ties: the lower index). */
  readonly chosen: number;
  /** That point's mean on the held-out set: an out-of-sample figure. */
  readonly heldOutScore: number;
}

/**
 * Leave one dataset out: for each set, the grid point chosen on the other sets alone (each set's
 * mean weighs the same, so SciFact's 809 claims do not outvote 100 multi-hop questions).
 */
export function chooseLeavingSetOut(grids: readonly SetGrid[]): SetOutChoice[] {
  const size = grids[0]?.means.length ?? 0;
  if (grids.some((grid) => grid.means.length !== size)) throw new Error(`every set's grid must have ${size} points: ${grids.map((grid) => `${grid.set} ${grid.means.length}`).join(', ')}`);
  return grids.map((held) => {
    const others = grids.filter((grid) => grid !== held);
    let chosen = 0;
    let best = -Infinity;
    for (let index = 0; index < size; index++) {
      const value = others.reduce((sum, grid) => sum + grid.means[index], 0) / Math.max(1, others.length);
      if (value > best) [chosen, best] = [index, value];
    }
    return { heldOut: held.set, chosen, heldOutScore: held.means[chosen] };
  });
}

/** Query index → fold: a seeded shuffle dealt round-robin (as prior-fitting.ts deals records). */
export function queryFolds(ids: readonly string[], k: number, seed: number): number[] {
  const foldOf = new Map(shuffled(ids, seed).map((id, index) => [id, index % k]));
  return ids.map((id) => foldOf.get(id)!);
}

/** The first stage answered once per query at the grid's deepest feedback, sliced for every grid point. */
function memoisedFirstStage(first: RetrieverPlugin, depth: number): RetrieverPlugin {
  const cache = new Map<string, Promise<readonly Hit[]>>();
  return {
    contract: first.contract,
    method: first.method,
    capabilities: () => first.capabilities(),
    search: async (query: RetrievalQuery) => {
      const key = `${query.text}\u0000${query.sources.join('\u0000')}`;
      if (!cache.has(key)) cache.set(key, first.search({ ...query, k: depth }));
      return (await cache.get(key)!).slice(0, query.k);
    },
  };
}

export interface Rm3OptionSearch {
  readonly run: MethodRun;
  /** Per fold: the options chosen on the other folds. */
  readonly chosen: readonly Rm3Options[];
  /** Mean nDCG@10 of every grid point over the whole split (in sample: shown, never used to choose a reported row). */
  readonly grid: readonly { readonly options: Rm3Options; readonly ndcg10: number }[];
}

export async function searchRm3Options(database: Database, bm25: RetrieverPlugin, environment: RunEnvironment, k: number, seed: number, log: (line: string) => void = () => undefined): Promise<Rm3OptionSearch> {
  const { dataset } = environment;
  const first = memoisedFirstStage(bm25, Math.max(...RM3_OPTION_GRID.map((options) => options.documents)));
  const runsByGrid: QueryRun[][] = [];
  for (const options of RM3_OPTION_GRID) {
    const runOne = retrieverRunner(new Rm3Retriever(database, first, options), environment);
    const runs: QueryRun[] = [];
    for (const query of dataset.queries) runs.push(await runOne(query));
    runsByGrid.push(runs);
  }
  const scores = runsByGrid.map((runs) => runs.map((run, index) => ndcgAt(run.ranked, dataset.qrels.get(dataset.queries[index].id)!, 10)));
  const folds = queryFolds(dataset.queries.map((query) => query.id), k, seed);
  const chosen = chooseByFolds(scores, folds, k);
  chosen.forEach((index, fold) => log(`  rm3 fold ${fold + 1}: ${optionLabel(RM3_OPTION_GRID[index])} (best on the other ${k - 1} folds)`));
  const runs = dataset.queries.map((_, query) => runsByGrid[chosen[folds[query]]][query]);
  return {
    run: Object.freeze({ method: `rm3 (${k}-fold options)`, runs, errors: 0 }),
    chosen: chosen.map((index) => RM3_OPTION_GRID[index]),
    grid: RM3_OPTION_GRID.map((options, index) => ({ options, ndcg10: scores[index].reduce((sum, score) => sum + score, 0) / Math.max(1, scores[index].length) })),
  };
}
