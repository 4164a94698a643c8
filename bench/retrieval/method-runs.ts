/**
 * Runs every query of a split through one method and keeps what the figures need: the ranked
 * document ids, the latency, and the context a budget-bound assembly would hand the model.
 */
import { assembleContext, type AssembledContext } from '../../server/runtime/execution/assemble-context';
import type { CompressedOutput } from '../../server/runtime/execution/node-executors';
import type { RetrieverPlugin } from '../../server/runtime/contracts/retriever';
import type { Hit } from '../../server/runtime/types';
import type { BeirDataset, BeirQuery } from './beir-dataset';
import { answerInContext } from './metrics';

/** Hits asked of every method: enough for Recall@100. */
export const RETRIEVAL_DEPTH = 100;
/** "Naive top-10 stuffing": the first ten hits, as many as fit the budget. */
export const NAIVE_CONTEXT_HITS = 10;
/** Queries run once untimed first, so JIT and PGlite's caches warm up the same for every method. */
const WARM_UP_QUERIES = 5;
/** The depth a run asks of a retriever by default (config `retrieval.top_k`): what serving latency means. */
export const SERVING_DEPTH = 20;
/** Depths of the timing-only passes: the runtime's default and the quality pass's own. */
export const WARM_DEPTHS = Object.freeze([SERVING_DEPTH, RETRIEVAL_DEPTH]);

export interface QueryRun {
  readonly queryId: string;
  readonly ranked: readonly string[];
  readonly latencyMs: number;
  readonly contextTokens: number;
  /** Undefined when the query has no gold answers. */
  readonly answerFound?: boolean;
  /** Planner only: the retrieval it chose, e.g. "bm25" or "bm25+dense". */
  readonly choice?: string;
}

export interface MethodRun {
  readonly method: string;
  readonly skipped?: string;
  readonly runs: readonly QueryRun[];
  readonly errors: number;
  readonly firstError?: string;
  /**
   * Timing-only passes after the quality pass, one per WARM_DEPTHS entry (single retrievers only):
   * every in-process cache (chunk rows, graph, vectors) as warm as in a server that has been
   * answering for a while.
   */
  readonly warmLatencyMs?: Readonly<Record<number, readonly number[]>>;
}

export interface RunEnvironment {
  readonly dataset: BeirDataset;
  readonly sourceName: string;
  readonly documentOf: ReadonlyMap<string, string>;
  readonly budget: number;
}

export const itemsOf = (hits: readonly Hit[]): CompressedOutput => ({
  items: hits.map((hit, index) => ({ ref: index + 1, hit, text: hit.text, tokens: hit.tokens, compressed: false })),
  tokensBefore: hits.reduce((sum, hit) => sum + hit.tokens, 0),
  tokensAfter: hits.reduce((sum, hit) => sum + hit.tokens, 0),
  omitted: [],
});

/** Ranked document ids (first occurrence of each), the context's tokens and whether it holds an answer. */
export function queryRun(environment: RunEnvironment, query: BeirQuery, hits: readonly Hit[], context: AssembledContext, latencyMs: number, choice?: string): QueryRun {
  const seen = new Set<string>();
  const ranked: string[] = [];
  for (const hit of hits) {
    const id = environment.documentOf.get(hit.chunkId);
    if (id !== undefined && !seen.has(id)) {
      seen.add(id);
      ranked.push(id);
    }
  }
  const text = context.items.map((item) => `${item.hit.title}\n${item.text}`).join('\n\n');
  return Object.freeze({
    queryId: query.id,
    ranked,
    latencyMs,
    contextTokens: context.tokens,
    ...(query.answers ? { answerFound: answerInContext(query.answers, text) } : {}),
    ...(choice ? { choice } : {}),
  });
}

export async function runQueries(
  method: string,
  environment: RunEnvironment,
  runOne: (query: BeirQuery) => Promise<QueryRun>,
  onProgress?: (done: number, total: number) => void,
): Promise<MethodRun> {
  const queries = environment.dataset.queries;
  for (const query of queries.slice(0, WARM_UP_QUERIES)) await runOne(query).catch(() => undefined);
  const runs: QueryRun[] = [];
  let errors = 0;
  let firstError: string | undefined;
  for (const [index, query] of queries.entries()) {
    try {
      runs.push(await runOne(query));
    } catch (error) {
      errors += 1;
      firstError ??= `${query.id}: ${(error as Error).message}`;
    }
    onProgress?.(index + 1, queries.length);
  }
  return Object.freeze({ method, runs, errors, ...(firstError ? { firstError } : {}) });
}

/** One retriever plugin, called as the runtime's retrieve node calls it (goal text, all sources). */
export function retrieverRunner(retriever: RetrieverPlugin, environment: RunEnvironment): (query: BeirQuery) => Promise<QueryRun> {
  return async (query) => {
    const started = performance.now();
    const hits = await retriever.search({ text: query.text, k: RETRIEVAL_DEPTH, sources: [environment.sourceName] });
    const latencyMs = performance.now() - started;
    return queryRun(environment, query, hits, assembleContext(itemsOf(hits), environment.budget, NAIVE_CONTEXT_HITS), latencyMs);
  };
}

/** Every query again at each of WARM_DEPTHS, timed only: the latency a run's retrieve node sees once caches are warm. */
export async function warmLatencies(retriever: RetrieverPlugin, environment: RunEnvironment): Promise<Record<number, number[]>> {
  const byDepth: Record<number, number[]> = {};
  for (const depth of WARM_DEPTHS) {
    const latencies: number[] = [];
    for (const query of environment.dataset.queries) {
      const started = performance.now();
      await retriever.search({ text: query.text, k: depth, sources: [environment.sourceName] });
      latencies.push(performance.now() - started);
    }
    byDepth[depth] = latencies;
  }
  return byDepth;
}
