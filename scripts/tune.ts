/**
 * Offline tuning on a labelled set: searches the PlanScore weights, retrieval top_k and the
 * reranker's head depth for the planner's nDCG@10 (or Recall@5), then writes what the config has
 * keys for into the config file, keeping its comments. `--objective answer` scores the packed
 * context instead: answer-in-context (multi-hop sets) minus a token charge, which final_k moves.
 *
 *   npm run tune -- --dataset ../shared/datasets/scifact --split train
 *     [--config context-runtime.yaml] [--trials 30] [--queries 200] [--seed 1] [--objective ndcg@10|recall@5|answer] [--dry-run]
 *
 * The dataset is loaded, ingested and opened exactly as bench:retrieval does (bench/retrieval).
 * Each trial plans every sampled query with the trial's config through the runtime's own
 * planRequest and runs the chosen graph's retrieval nodes (bench/retrieval/planner-runs.ts).
 * Retrieval results are cached per (query, retrieval nodes, rerank depth): trials that only move
 * weights re-plan (milliseconds) and reuse the rankings. The sample is split in half: the search
 * sees the tuning half only; the held-out half shows whether the gain generalises.
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseDocument } from 'yaml';
import type { Database } from '../db/client';
import { RerankRetriever } from '../server/adapters/retrievers/rerank-retriever';
import { DenseRetriever } from '../server/adapters/retrievers/dense-retriever';
import { configSchema, type RuntimeConfig } from '../server/runtime/config/config-schema';
import { planRequest } from '../server/runtime/facade/plan-request';
import type { RuntimePlugins } from '../server/runtime/facade/runtime-plugins';
import { validateRunRequest } from '../server/runtime/facade/validate-request';
import { shuffledOrder } from '../server/runtime/learning/bandit-replay';
import { searchParameters, type TuningPoint } from '../server/runtime/learning/parameter-search';
import { writeTunedValues } from '../server/runtime/learning/tuned-config-writer';
import { type BeirQuery, DatasetError, loadBeirDataset } from '../bench/retrieval/beir-dataset';
import { ingestDataset, writeBenchConfig } from '../bench/retrieval/bench-database';
import { type BenchRuntime, openBenchRuntime } from '../bench/retrieval/bench-runtime';
import { answerInContext, mean, ndcgAt, recallAt } from '../bench/retrieval/metrics';
import { itemsOf } from '../bench/retrieval/method-runs';
import { assembleContext } from '../server/runtime/execution/assemble-context';
import type { Hit } from '../server/runtime/types';
import { choiceOf, executeRetrieval } from '../bench/retrieval/planner-runs';

const argument = (name: string): string | undefined => {
  const index = process.argv.indexOf(name);
  return index >= 0 ? process.argv[index + 1] : undefined;
};

function usage(message: string): never {
  console.error(`${message}\nusage: npm run tune -- --dataset <folder> --split <name> [--config FILE] [--trials N] [--queries N] [--seed N] [--objective ndcg@10|recall@5|answer] [--dry-run]`);
  process.exit(2);
}

const positiveInteger = (name: string, fallback: number): number => {
  const value = Number(argument(name) ?? fallback);
  if (!Number.isInteger(value) || value < 0) usage(`${name} must be a non-negative integer, got ${argument(name)}`);
  return value;
};

interface Scores {
  readonly ndcg10: number;
  readonly recall5: number;
  /** Share of queries with gold answers whose assembled context holds one (NaN without answers). */
  readonly answerInContext: number;
  readonly contextTokens: number;
  readonly choices: Readonly<Record<string, number>>;
}

/**
 * The `answer` objective charges context tokens: without a charge a larger final_k always wins.
 * 0.2 per full token budget = one answer in five is worth the whole budget.
 */
const TOKEN_CHARGE = 0.2;

/** PgStore keeps its handle private; the bench runtime reads it the same way. */
const databaseOf = (plugins: RuntimePlugins): Database => (plugins.store as unknown as { database: Database }).database;

function withRerankDepth(plugins: RuntimePlugins, depth: number): RuntimePlugins {
  const bm25 = plugins.retrievers.find((retriever) => retriever.method === 'bm25');
  const dense = plugins.retrievers.find((retriever) => retriever.method === 'dense');
  if (!bm25 || !plugins.retrievers.some((retriever) => retriever.method === 'rerank')) return plugins;
  const rerank = new RerankRetriever(databaseOf(plugins), bm25, { topN: depth, ...(dense instanceof DenseRetriever ? { dense } : {}) });
  return { ...plugins, retrievers: plugins.retrievers.map((retriever) => (retriever.method === 'rerank' ? rerank : retriever)) };
}

function trialConfig(base: RuntimeConfig, point: TuningPoint): RuntimeConfig {
  return { ...base, costmodel: { ...base.costmodel, weights: { ...point.weights } }, retrieval: { ...base.retrieval, top_k: point.topK, final_k: point.finalK }, plan_cache: { ...base.plan_cache, enabled: false } };
}

function createEvaluator(bench: BenchRuntime, base: RuntimeConfig, documentOf: ReadonlyMap<string, string>, qrels: ReadonlyMap<string, ReadonlySet<string>>) {
  const retrieved = new Map<string, readonly Hit[]>();
  const pluginsByDepth = new Map<number, RuntimePlugins>();
  const failedShapes = new Set<string>();
  return async (point: TuningPoint, queries: readonly BeirQuery[]): Promise<Scores> => {
    const plugins = pluginsByDepth.get(point.rerankDepth) ?? withRerankDepth(bench.plugins, point.rerankDepth);
    pluginsByDepth.set(point.rerankDepth, plugins);
    const config = trialConfig(base, point);
    const ndcg: number[] = [];
    const recall: number[] = [];
    const answers: number[] = [];
    const tokens: number[] = [];
    const choices: Record<string, number> = {};
    for (const query of queries) {
      const planned = await planRequest(plugins, config, validateRunRequest({ goal: query.text }));
      const retrieval = planned.graph.nodes.filter((node) => node.kind === 'retrieve' || node.kind === 'fuse' || node.kind === 'rerank');
      const usesRerank = retrieval.some((node) => node.kind === 'retrieve' && node.method === 'rerank');
      const key = `${query.id}\u0000${usesRerank ? point.rerankDepth : '-'}\u0000${JSON.stringify(retrieval.map(({ estimate: _estimate, ...node }) => node))}`;
      let hits = retrieved.get(key);
      if (!hits) {
        try {
          hits = await executeRetrieval({ ...bench, plugins }, planned);
        } catch (error) {
          // A failing retriever scores an empty ranking (as in bench:retrieval), reported once per plan shape.
          const shape = choiceOf(planned.graph);
          if (!failedShapes.has(shape)) console.warn(`  retrieval failed for plan ${shape} (query ${query.id}): ${(error as Error).message}; scored as an empty ranking`);
          failedShapes.add(shape);
          hits = [];
        }
        retrieved.set(key, hits);
      }
      const ranked = [...new Set(hits.map((hit) => documentOf.get(hit.chunkId)).filter((id): id is string => id !== undefined))];
      // Packed as the plan's assemble node packs it (its budget, final_k, source coverage), as planner-runs does.
      const assemble = planned.graph.nodes.find((node) => node.kind === 'assemble');
      const context = assemble?.kind === 'assemble' ? assembleContext(itemsOf(hits), assemble.tokenBudget, assemble.finalK, assemble.coverSources) : assembleContext(itemsOf(hits), config.retrieval.context_token_budget, point.finalK);
      tokens.push(context.tokens / config.retrieval.context_token_budget);
      if (query.answers) answers.push(Number(answerInContext(query.answers, context.items.map((item) => `${item.hit.title}\n${item.text}`).join('\n\n'))));
      const gold = qrels.get(query.id)!;
      ndcg.push(ndcgAt(ranked, gold, 10));
      recall.push(recallAt(ranked, gold, 5));
      const choice = choiceOf(planned.graph);
      choices[choice] = (choices[choice] ?? 0) + 1;
    }
    return { ndcg10: mean(ndcg), recall5: mean(recall), answerInContext: mean(answers), contextTokens: mean(tokens), choices };
  };
}

const format = (scores: Scores) =>
  `nDCG@10 ${scores.ndcg10.toFixed(4)}  R@5 ${(100 * scores.recall5).toFixed(1)}${Number.isNaN(scores.answerInContext) ? '' : `  answer-in-ctx ${(100 * scores.answerInContext).toFixed(1)}%`}  ctx ${(100 * scores.contextTokens).toFixed(0)}% of budget`;
const describePoint = (point: TuningPoint) => `weights ${Object.entries(point.weights).map(([name, value]) => `${name}=${value}`).join(' ')}; top_k ${point.topK}; final_k ${point.finalK}; rerank depth ${point.rerankDepth}`;
const objectiveOf = (objective: string, scores: Scores): number =>
  objective === 'ndcg@10' ? scores.ndcg10 : objective === 'recall@5' ? scores.recall5 : scores.answerInContext - TOKEN_CHARGE * scores.contextTokens;

async function main(): Promise<void> {
  const folder = argument('--dataset') ?? usage('--dataset is required');
  const split = argument('--split') ?? usage('--split is required');
  const configPath = resolve(argument('--config') ?? 'context-runtime.yaml');
  const trials = positiveInteger('--trials', 30);
  const sample = positiveInteger('--queries', 200);
  const seed = positiveInteger('--seed', 1);
  const objective = argument('--objective') ?? 'ndcg@10';
  if (objective !== 'ndcg@10' && objective !== 'recall@5' && objective !== 'answer') usage(`--objective must be ndcg@10, recall@5 or answer, got ${objective}`);

  const raw = existsSync(configPath) ? parseDocument(readFileSync(configPath, 'utf8')).toJS() : {};
  const current = configSchema.parse(raw ?? {});
  const dataset = loadBeirDataset(folder, split);
  const order = shuffledOrder(dataset.queries.length, seed).slice(0, sample || dataset.queries.length).map((index) => dataset.queries[index]);
  const half = Math.ceil(order.length / 2);
  const [tuning, heldOut] = [order.slice(0, half), order.slice(half)];
  console.log(`tune ${dataset.name}/${split}: ${order.length} of ${dataset.queries.length} queries (seed ${seed}): ${tuning.length} to tune on, ${heldOut.length} held out; objective ${objective}; ${trials} trials`);
  console.log(`config ${configPath}${existsSync(configPath) ? '' : ' (does not exist yet: defaults; it will be created)'}`);

  const corpus = await ingestDataset(dataset);
  try {
    const bench = await openBenchRuntime(writeBenchConfig(corpus, current.retrieval.context_token_budget));
    try {
      // The bench database's config, with the file's planner settings on top: only tuned keys vary.
      const base: RuntimeConfig = { ...bench.runtime.config, costmodel: current.costmodel, retrieval: { ...current.retrieval } };
      const evaluate = createEvaluator(bench, base, corpus.documentOf, dataset.qrels);
      const start: TuningPoint = { weights: { ...current.costmodel.weights }, topK: current.retrieval.top_k, finalK: current.retrieval.final_k, rerankDepth: 30 };
      const started = performance.now();
      let last: Scores | undefined;
      const result = await searchParameters(start, async (point) => {
        last = await evaluate(point, tuning);
        return objectiveOf(objective, last);
      }, {
        trials,
        seed,
        onTrial: (record) => {
          const plans = Object.entries(last?.choices ?? {}).sort((left, right) => right[1] - left[1]).map(([plan, count]) => `${plan}×${count}`).join(' ');
          console.log(`  trial ${String(record.trial).padStart(3)}: ${record.score.toFixed(4)}${record.kept ? '  kept' : '      '}  top_k ${record.point.topK}, final_k ${record.point.finalK}, depth ${record.point.rerankDepth}; plans ${plans}${record.trial === 0 ? '  (current config)' : ''}`);
        },
      });
      console.log(`search took ${((performance.now() - started) / 1000).toFixed(1)} s`);

      console.log('\n| | tuning half | held-out half | all sampled |');
      console.log('|---|---|---|---|');
      for (const [label, point] of [['before', start], ['after', result.best]] as const) {
        const cells = await Promise.all([tuning, heldOut, order].map((queries) => (queries.length ? evaluate(point, queries).then(format) : Promise.resolve('–'))));
        console.log(`| ${label} | ${cells.join(' | ')} |`);
      }
      const [before, after] = [await evaluate(start, order), await evaluate(result.best, order)];
      console.log(`\nbefore: ${describePoint(start)}\n  plans chosen: ${JSON.stringify(before.choices)}`);
      console.log(`after:  ${describePoint(result.best)}\n  plans chosen: ${JSON.stringify(after.choices)}`);
      if (result.best.rerankDepth !== start.rerankDepth) {
        console.log(`rerank depth ${result.best.rerankDepth} scored best, but the config has no key for it yet (the reranker's head is RerankOptions.topN = 30): not written`);
      }
      if (result.bestScore <= result.startScore) console.log('\nno trial beat the current config: nothing to write');
      else if (process.argv.includes('--dry-run')) console.log('\n--dry-run: config not written');
      else {
        writeTunedValues(configPath, [...Object.entries(result.best.weights).map(([name, value]) => [['costmodel', 'weights', name], value] as const), [['retrieval', 'top_k'], result.best.topK] as const, [['retrieval', 'final_k'], result.best.finalK] as const]);
        console.log(`\nwrote costmodel.weights, retrieval.top_k and retrieval.final_k to ${configPath} (comments kept)`);
      }
    } finally {
      await bench.close();
    }
  } finally {
    rmSync(corpus.root, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  if (error instanceof DatasetError) usage(error.message);
  console.error(error);
  process.exit(1);
});
