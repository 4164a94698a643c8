/** Per-method figures from the query runs, and the side-by-side table the bench prints. */
import type { BeirDataset } from './beir-dataset';
import type { IngestFigures } from './bench-database';
import { mean, ndcgAt, percentile, RECALL_CUTOFFS, recallAt } from './metrics';
import { type MethodRun, RETRIEVAL_DEPTH, WARM_DEPTHS } from './method-runs';

export interface MethodFigures {
  readonly method: string;
  readonly skipped?: string;
  readonly queries: number;
  readonly errors: number;
  readonly firstError?: string;
  readonly ndcg10: number;
  readonly recall: Readonly<Record<`R@${number}`, number>>;
  /** Share of queries with gold answers whose context holds one; undefined when the set has none. */
  readonly answerInContext?: number;
  readonly meanContextTokens: number;
  readonly latencyMs: { readonly p50: number; readonly p95: number; readonly mean: number };
  /** p50 of each timing-only pass, by depth (single retrievers). */
  readonly warmP50Ms?: Readonly<Record<number, number>>;
  /** Planner only: how often each retrieval was chosen. */
  readonly choices?: Readonly<Record<string, number>>;
}

export function figuresOf(run: MethodRun, dataset: BeirDataset): MethodFigures {
  if (run.skipped) {
    return { method: run.method, skipped: run.skipped, queries: 0, errors: 0, ndcg10: Number.NaN, recall: {}, meanContextTokens: Number.NaN, latencyMs: { p50: Number.NaN, p95: Number.NaN, mean: Number.NaN } };
  }
  // Queries that failed count as empty rankings: an error must not raise the average.
  const byQuery = new Map(run.runs.map((queryRun) => [queryRun.queryId, queryRun]));
  const rankings = dataset.queries.map((query) => ({ gold: dataset.qrels.get(query.id)!, ranked: byQuery.get(query.id)?.ranked ?? [] }));
  const recall = Object.fromEntries(RECALL_CUTOFFS.map((k) => [`R@${k}`, mean(rankings.map(({ ranked, gold }) => recallAt(ranked, gold, k)))]));
  const withAnswers = dataset.queries.filter((query) => query.answers);
  const latencies = run.runs.map((queryRun) => queryRun.latencyMs).sort((a, b) => a - b);
  const choices: Record<string, number> = {};
  for (const queryRun of run.runs) if (queryRun.choice) choices[queryRun.choice] = (choices[queryRun.choice] ?? 0) + 1;
  return {
    method: run.method,
    queries: dataset.queries.length,
    errors: run.errors,
    ...(run.firstError ? { firstError: run.firstError } : {}),
    ndcg10: mean(rankings.map(({ ranked, gold }) => ndcgAt(ranked, gold, 10))),
    recall,
    ...(withAnswers.length > 0 ? { answerInContext: withAnswers.filter((query) => byQuery.get(query.id)?.answerFound === true).length / withAnswers.length } : {}),
    meanContextTokens: mean(run.runs.map((queryRun) => queryRun.contextTokens)),
    latencyMs: { p50: percentile(latencies, 50), p95: percentile(latencies, 95), mean: mean(latencies) },
    ...(run.warmLatencyMs ? { warmP50Ms: Object.fromEntries(Object.entries(run.warmLatencyMs).map(([depth, latencies]) => [depth, percentile([...latencies].sort((a, b) => a - b), 50)])) } : {}),
    ...(Object.keys(choices).length > 0 ? { choices } : {}),
  };
}

const fixed = (value: number | undefined, digits: number): string => (value === undefined || Number.isNaN(value) ? '–' : value.toFixed(digits));
const percent = (value: number | undefined): string => (value === undefined || Number.isNaN(value) ? '–' : (100 * value).toFixed(1));

export function formatTable(dataset: BeirDataset, figures: readonly MethodFigures[], ingest: IngestFigures, budget: number): string {
  const lines: string[] = [];
  lines.push(`dataset ${dataset.name}, split ${dataset.split}: ${dataset.queries.length} queries with qrels, ${dataset.documents.length} documents; context budget ${budget} tokens`);
  const embedding = 'skipped' in ingest.embedding ? `embedding skipped (${ingest.embedding.skipped})` : `embedding ${ingest.embedding.embedderId}: ${ingest.embedding.chunks} chunks in ${ingest.embedding.seconds.toFixed(2)} s = ${Math.round(ingest.embedding.chunksPerSecond)} chunks/s`;
  lines.push(`ingest (PgStore.ingest, embedding excluded): ${ingest.chunks} chunks in ${ingest.ingestSeconds.toFixed(2)} s = ${Math.round(ingest.chunksPerSecond)} chunks/s`);
  lines.push(`separately: token counting ${ingest.tokenCountSeconds.toFixed(2)} s; knowledge sync ${ingest.knowledgeSyncSeconds.toFixed(2)} s; ${embedding}; search vectors ${ingest.searchVectorSeconds.toFixed(2)} s; graph + identifier indexes ${ingest.derivedIndexSeconds.toFixed(2)} s`);
  lines.push('');
  const answers = figures.some((figure) => figure.answerInContext !== undefined);
  const header = ['method', 'nDCG@10', ...RECALL_CUTOFFS.map((k) => `R@${k}`), ...(answers ? ['answer-in-ctx %'] : []), 'ctx tokens', 'p50 ms', 'p95 ms', ...WARM_DEPTHS.map((depth) => `warm p50 k=${depth}`)];
  lines.push(`| ${header.join(' | ')} |`);
  lines.push(`|${header.map((_, index) => (index === 0 ? '---' : '---:')).join('|')}|`);
  for (const figure of figures) {
    if (figure.skipped) {
      lines.push(`| ${figure.method} | skipped: ${figure.skipped} |${' |'.repeat(header.length - 2)}`);
      continue;
    }
    const cells = [
      figure.method,
      fixed(figure.ndcg10, 4),
      ...RECALL_CUTOFFS.map((k) => percent(figure.recall[`R@${k}`])),
      ...(answers ? [percent(figure.answerInContext)] : []),
      fixed(figure.meanContextTokens, 0),
      fixed(figure.latencyMs.p50, 2),
      fixed(figure.latencyMs.p95, 2),
      ...WARM_DEPTHS.map((depth) => fixed(figure.warmP50Ms?.[depth], 2)),
    ];
    lines.push(`| ${cells.join(' | ')} |`);
  }
  for (const figure of figures) {
    if (figure.errors > 0) lines.push(`${figure.method}: ${figure.errors} queries failed (counted as empty rankings); first: ${figure.firstError}`);
    if (figure.choices) {
      const tally = Object.entries(figure.choices).sort((a, b) => b[1] - a[1]).map(([choice, count]) => `${choice} ×${count}`).join(', ');
      lines.push(`${figure.method} chose: ${tally}`);
    }
  }
  lines.push(`Recall in %; latency = one query through the plugin at k = ${RETRIEVAL_DEPTH} (planner: plan + retrieval nodes), after 5 warm-up queries (the runtime loads its chunk-row cache when it opens, as a server start does; other caches fill during this pass); "warm p50" = timing-only passes afterwards (single retrievers), at the runtime's default depth (${WARM_DEPTHS[0]}) and at ${RETRIEVAL_DEPTH}.`);
  return lines.join('\n');
}
