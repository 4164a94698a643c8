/**
 * Out-of-fold rows of bench:retrieval (issue 16): every held-out query is ranked by a reranker and
 * planned with method priors fitted on other queries only — the other folds of its own set
 * (k-fold, folds by query), or other sets (--fit-from: leave one dataset out). The in-sample rows
 * stay beside them; the planner's acceptance is read from these.
 */
import { assembleContext } from '../../server/runtime/execution/assemble-context';
import { planRequest } from '../../server/runtime/facade/plan-request';
import type { RuntimePlugins } from '../../server/runtime/facade/runtime-plugins';
import { validateRunRequest } from '../../server/runtime/facade/validate-request';
import { RerankRetriever } from '../../server/adapters/retrievers/rerank-retriever';
import type { BeirQuery } from './beir-dataset';
import type { BenchRuntime } from './bench-runtime';
import { itemsOf, type MethodRun, type QueryRun, queryRun, RETRIEVAL_DEPTH, retrieverRunner, type RunEnvironment } from './method-runs';
import { choiceOf, executeRetrieval } from './planner-runs';
import { type CrossValidation, type FittedPriors, fitPriors, foldsOf } from './prior-fitting';
import { foldRerankRetriever, pluginsWithFit } from './prior-overlay';
import { metricOf, type QueryRecord, rankingsByQuery, scoresByQuery } from './query-records';

/** k-fold within the set, or one fit from other sets' records. */
export type OutOfFoldPlan = { readonly kind: 'k-fold'; readonly validation: CrossValidation } | { readonly kind: 'leave-dataset-out'; readonly fitRecords: readonly QueryRecord[]; readonly validation: CrossValidation };

export interface FoldFit {
  readonly fold: string;
  readonly heldOut: number;
  readonly fit: FittedPriors;
}

export interface OutOfFoldResult {
  readonly label: string;
  readonly runs: readonly MethodRun[];
  readonly fits: readonly FoldFit[];
}

/** Intent class, every method's score and the reranker's head features, per labelled query. */
export async function collectRecords(bench: BenchRuntime, environment: RunEnvironment, runs: readonly MethodRun[]): Promise<QueryRecord[]> {
  const { dataset } = environment;
  const metric = metricOf(dataset);
  const scores = scoresByQuery(dataset, runs);
  const rankings = rankingsByQuery(dataset, runs);
  const rerank = bench.retriever('rerank');
  const records: QueryRecord[] = [];
  for (const query of dataset.queries) {
    let head: QueryRecord['head'];
    if (rerank instanceof RerankRetriever) {
      const scored = await rerank.scoreHead({ text: query.text, k: RETRIEVAL_DEPTH, sources: [environment.sourceName] }, RETRIEVAL_DEPTH);
      const documents = scored.hits.map((hit) => environment.documentOf.get(hit.chunkId) ?? hit.chunkId);
      head = { features: scored.features.map((row) => Array.from(row)), documents: documents.slice(0, scored.features.length), tail: documents.slice(scored.features.length) };
    }
    records.push({ set: dataset.name, id: query.id, intent: bench.plugins.intentAnalyzer.analyze(query.text).primary, metric, gold: [...dataset.qrels.get(query.id)!], scores: scores.get(query.id)!, ...(head ? { head } : {}), rankings: rankings.get(query.id)! });
  }
  return records;
}

/** The planner as plannerRunner runs it, but planned through `plugins` with the plan cache off (a cached plan was made under other priors). */
function foldPlannerRunner(bench: BenchRuntime, plugins: RuntimePlugins, environment: RunEnvironment): (query: BeirQuery) => Promise<QueryRun> {
  const config = { ...bench.runtime.config, plan_cache: { ...bench.runtime.config.plan_cache, enabled: false } };
  return async (query) => {
    const started = performance.now();
    const planned = await planRequest(plugins, config, validateRunRequest({ goal: query.text }));
    const hits = await executeRetrieval({ ...bench, plugins }, planned);
    const latencyMs = performance.now() - started;
    const assemble = planned.graph.nodes.find((node) => node.kind === 'assemble');
    const context = assemble?.kind === 'assemble' ? assembleContext(itemsOf(hits), assemble.tokenBudget, assemble.finalK, assemble.coverSources) : assembleContext(itemsOf(hits), environment.budget, 8);
    return queryRun(environment, query, hits, context, latencyMs, choiceOf(planned.graph));
  };
}

async function runHeldOut(name: string, queries: readonly BeirQuery[], runOne: (query: BeirQuery) => Promise<QueryRun>, into: { runs: QueryRun[]; errors: number; firstError?: string }): Promise<void> {
  for (const query of queries) {
    try {
      into.runs.push(await runOne(query));
    } catch (error) {
      into.errors += 1;
      into.firstError ??= `${name} ${query.id}: ${(error as Error).message}`;
    }
  }
}

export async function outOfFoldRuns(bench: BenchRuntime, environment: RunEnvironment, records: readonly QueryRecord[], plan: OutOfFoldPlan, log: (line: string) => void = () => undefined): Promise<OutOfFoldResult> {
  const label = plan.kind === 'k-fold' ? `${plan.validation.folds}-fold` : 'other sets';
  const folds = plan.kind === 'k-fold' ? foldsOf(records, plan.validation) : undefined;
  const groups =
    plan.kind === 'k-fold'
      ? Array.from({ length: plan.validation.folds }, (_, fold) => ({ fold: String(fold + 1), train: records.filter((record) => folds!.get(`${record.set}/${record.id}`) !== fold), held: new Set(records.filter((record) => folds!.get(`${record.set}/${record.id}`) === fold).map((record) => record.id)) }))
      : [{ fold: [...new Set(plan.fitRecords.map((record) => record.set))].join('+'), train: plan.fitRecords, held: new Set(records.map((record) => record.id)) }];
  const rerank = { runs: [] as QueryRun[], errors: 0, firstError: undefined as string | undefined };
  const planner = { runs: [] as QueryRun[], errors: 0, firstError: undefined as string | undefined };
  const fits: FoldFit[] = [];
  for (const group of groups) {
    const started = performance.now();
    const fit = fitPriors(group.train, plan.validation);
    const queries = environment.dataset.queries.filter((query) => group.held.has(query.id));
    const foldRerank = foldRerankRetriever(bench.plugins, fit, `fold-${group.fold}`);
    const plugins = pluginsWithFit(bench.plugins, fit, foldRerank);
    if (foldRerank) await runHeldOut('rerank', queries, retrieverRunner(foldRerank, environment), rerank);
    await runHeldOut('planner', queries, foldPlannerRunner(bench, plugins, environment), planner);
    fits.push({ fold: group.fold, heldOut: queries.length, fit });
    log(`  fold ${group.fold} (${queries.length} held out, fitted on ${fit.queries}; rerank out-of-fold gain ${fit.reranker?.oofGain.toFixed(4) ?? '–'}): ${((performance.now() - started) / 1000).toFixed(1)} s`);
  }
  const order = new Map(environment.dataset.queries.map((query, index) => [query.id, index]));
  const sorted = (runs: QueryRun[]) => runs.sort((left, right) => order.get(left.queryId)! - order.get(right.queryId)!);
  const runOf = (method: string, into: typeof rerank): MethodRun => Object.freeze({ method: `${method} (${label})`, runs: sorted(into.runs), errors: into.errors, ...(into.firstError ? { firstError: into.firstError } : {}) });
  return { label, runs: [...(rerank.runs.length > 0 ? [runOf('rerank', rerank)] : []), runOf('planner', planner)], fits };
}
