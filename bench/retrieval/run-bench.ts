/** One benchmark run over a loaded dataset: ingest, open the runtime, every method, figures. */
import { rmSync } from 'node:fs';
import type { BeirDataset } from './beir-dataset';
import { type IngestFigures, ingestDataset, writeBenchConfig } from './bench-database';
import { type BenchRuntime, openBenchRuntime } from './bench-runtime';
import { type MethodRun, retrieverRunner, type RunEnvironment, runQueries, warmLatencies } from './method-runs';
import { plannerRunner } from './planner-runs';
import { PlannerOverhead } from './planner-overhead';
import { figuresOf, type MethodFigures } from './report-table';

export const DEFAULT_METHODS: readonly string[] = Object.freeze(['bm25', 'dense', 'hybrid', 'rerank', 'rm3', 'graph', 'planner']);
export const DEFAULT_BUDGET = 3000;

export type AfterMethods = (bench: BenchRuntime, environment: RunEnvironment, runs: readonly MethodRun[]) => Promise<readonly MethodRun[]>;

export interface BenchOptions {
  readonly methods: readonly string[];
  readonly budget: number;
  /** Keep the temp directory (database and config) after the run. */
  readonly keep?: boolean;
  /** An empty directory for the database and config (the CLI makes it so it can remove it on Ctrl-C); default a new temp dir. */
  readonly root?: string;
  readonly log?: (line: string) => void;
  /** Progress as "\r  method: done/total" fragments. */
  readonly progress?: (fragment: string) => void;
  /** Runs after every method, with the runtime still open (the out-of-fold rows); its runs are added to the result. */
  readonly afterMethods?: AfterMethods;
}

export interface BenchResult {
  readonly ingest: IngestFigures;
  readonly runs: readonly MethodRun[];
  readonly figures: readonly MethodFigures[];
  /** Methods the bench added to the runtime because bootstrap does not register them. */
  readonly added: readonly string[];
}

export async function runBench(dataset: BeirDataset, options: BenchOptions): Promise<BenchResult> {
  const log = options.log ?? (() => undefined);
  const corpus = await ingestDataset(dataset, options.root);
  const runs: MethodRun[] = [];
  let added: readonly string[] = [];
  try {
    const bench = await openBenchRuntime(writeBenchConfig(corpus, options.budget));
    added = bench.added;
    if (added.length > 0) log(`(added to the runtime's retrievers for this run, not registered by bootstrap: ${added.join(', ')})`);
    const environment: RunEnvironment = { dataset, sourceName: corpus.sourceName, documentOf: corpus.documentOf, budget: options.budget };
    try {
      for (const method of options.methods) {
        const started = performance.now();
        const progress = options.progress ? (done: number, total: number) => options.progress!(`\r  ${method}: ${done}/${total}`) : undefined;
        const retriever = method === 'planner' ? undefined : bench.retriever(method);
        const capabilities = retriever?.capabilities();
        if (method === 'planner') {
          const overhead = new PlannerOverhead(5); // runQueries' warm-up queries are left out
          runs.push(await runQueries(method, environment, plannerRunner(bench, environment, overhead), progress));
          log(`  ${overhead.summary().replaceAll('\n', '\n  ')}`);
        }
        else if (!retriever) runs.push({ method, skipped: `no retriever "${method}" is registered (registered: ${bench.plugins.retrievers.map((plugin) => plugin.method).join(', ')})`, runs: [], errors: 0 });
        else if (!capabilities?.available) runs.push({ method, skipped: capabilities?.unavailableReason ?? 'reported unavailable', runs: [], errors: 0 });
        else {
          const run = await runQueries(method, environment, retrieverRunner(retriever, environment), progress);
          runs.push({ ...run, warmLatencyMs: await warmLatencies(retriever, environment) });
        }
        options.progress?.('\r');
        log(`  ${method}: ${runs[runs.length - 1].skipped ? 'skipped' : 'done'} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
      }
      if (options.afterMethods) runs.push(...(await options.afterMethods(bench, environment, runs)));
    } finally {
      await bench.close();
    }
  } finally {
    if (!options.keep) rmSync(corpus.root, { recursive: true, force: true });
  }
  return { ingest: corpus.figures, runs, figures: runs.map((run) => figuresOf(run, dataset)), added };
}
