/**
 * Retrieval benchmark: every method side by side on one BEIR-layout dataset split.
 *
 *   npm run bench:retrieval -- --dataset ../shared/datasets/scifact --split train
 *     [--methods bm25,dense,hybrid,rerank,rm3,graph,planner] [--budget 3000] [--json FILE] [--runs DIR]
 *
 * Ingests the corpus into a fresh embedded PGlite (temp dir) through the real store, embeds it
 * with the configured embedder, opens the runtime over it and runs every query that has qrels in
 * the split through each method. --runs DIR writes each method's rankings as JSON
 * ({query id: [doc ids]}) for ../shared/scripts/eval-run.py. See bench/retrieval/RESULTS.md.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { DatasetError, loadBeirDataset } from './retrieval/beir-dataset';
import { formatTable } from './retrieval/report-table';
import { DEFAULT_BUDGET, DEFAULT_METHODS, runBench } from './retrieval/run-bench';

function argument(name: string): string | undefined {
  const index = process.argv.indexOf(name);
  return index >= 0 ? process.argv[index + 1] : undefined;
}

function usage(message: string): never {
  console.error(`${message}\nusage: npm run bench:retrieval -- --dataset <folder> --split <name> [--methods ${DEFAULT_METHODS.join(',')}] [--budget TOKENS] [--json FILE] [--runs DIR] [--keep]`);
  process.exit(2);
}

async function main(): Promise<void> {
  const folder = argument('--dataset') ?? usage('--dataset is required');
  const split = argument('--split') ?? usage('--split is required');
  const methods = (argument('--methods') ?? DEFAULT_METHODS.join(',')).split(',').map((method) => method.trim()).filter(Boolean);
  const budget = Number(argument('--budget') ?? DEFAULT_BUDGET);
  if (!Number.isInteger(budget) || budget <= 0) usage(`--budget must be a positive integer, got ${argument('--budget')}`);
  const jsonPath = argument('--json');
  const runsDir = argument('--runs');

  const dataset = loadBeirDataset(folder, split);
  const started = performance.now();
  console.log(`bench:retrieval ${dataset.name}/${split}: ${dataset.documents.length} documents, ${dataset.queries.length} queries; ${cpus().length} CPUs, node ${process.version}`);
  const result = await runBench(dataset, { methods, budget, keep: process.argv.includes('--keep'), log: (line) => console.log(line), progress: process.stderr.isTTY ? (line) => process.stderr.write(line) : undefined });
  console.log('');
  console.log(formatTable(dataset, result.figures, result.ingest, budget));
  console.log(`total ${((performance.now() - started) / 1000).toFixed(1)} s`);
  if (runsDir) {
    mkdirSync(runsDir, { recursive: true });
    for (const run of result.runs.filter((entry) => !entry.skipped)) {
      writeFileSync(join(runsDir, `${dataset.name}-${split}-${run.method}.json`), JSON.stringify(Object.fromEntries(run.runs.map((queryRun) => [queryRun.queryId, queryRun.ranked]))));
    }
  }
  if (jsonPath) {
    const report = { dataset: dataset.name, split, folder: dataset.folder, queries: dataset.queries.length, documents: dataset.documents.length, budget, ingest: result.ingest, methods: result.figures, machine: { cpus: cpus().length, model: cpus()[0]?.model, node: process.version }, date: new Date().toISOString() };
    writeFileSync(jsonPath, `${JSON.stringify(report, null, 2)}\n`);
  }
}

main().catch((error: unknown) => {
  if (error instanceof DatasetError) usage(error.message);
  console.error(error);
  process.exit(1);
});
