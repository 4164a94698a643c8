/**
 * Retrieval benchmark: every method side by side on one BEIR-layout dataset split.
 *
 *   npm run bench:retrieval -- --dataset ../shared/datasets/scifact --split train
 *     [--methods bm25,dense,hybrid,rerank,rm3,graph,planner] [--budget 3000] [--json FILE] [--runs DIR]
 *     [--cv 5] [--records FILE] [--fit-from OTHER-SET-RECORDS,…] [--reuse-records THIS-SET-RECORDS] [--rm3-cv 5]
 *
 * Ingests the corpus into a fresh embedded PGlite (temp dir) through the real store, embeds it
 * with the configured embedder, opens the runtime over it and runs every query that has qrels in
 * the split through each method. --runs DIR writes each method's rankings as JSON
 * ({query id: [doc ids]}) for ../shared/scripts/eval-run.py. See bench/retrieval/RESULTS.md.
 *
 * Out of fold (issue 16): --cv K adds "rerank (K-fold)" and "planner (K-fold)" rows, each query
 * ranked and planned with a reranker and method priors fitted on the other folds only (folds by
 * query, fixed seed); --fit-from fits on other sets' records instead (leave one dataset out);
 * --records writes this set's per-query records for those fits (--reuse-records reads
 * them back instead of recomputing) (bench/retrieval/out-of-fold-runs.ts). --rm3-cv K adds
 * "rm3 (K-fold options)": rm3's options chosen per fold on the other folds (rm3-option-search.ts).
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { BenchUsageError, KNOWN_METHODS, parseBenchArguments } from './retrieval/bench-arguments';
import { type BeirDataset, DatasetError, loadBeirDataset } from './retrieval/beir-dataset';
import { formatOutOfFold, primaryFigure } from './retrieval/out-of-fold-report';
import { collectRecords, type OutOfFoldResult, outOfFoldRuns } from './retrieval/out-of-fold-runs';
import { DEFAULT_CROSS_VALIDATION } from './retrieval/prior-fitting';
import { metricOf, type QueryRecord, readRecords, reclassified } from './retrieval/query-records';
import { figuresOf, formatTable, type MethodFigures } from './retrieval/report-table';
import { databaseOf } from './retrieval/bench-runtime';
import { optionLabel, searchRm3Options } from './retrieval/rm3-option-search';
import { type AfterMethods, runBench } from './retrieval/run-bench';
import { youngGenerationNote } from './young-generation';

function usage(message: string): never {
  console.error(`${message}\nusage: npm run bench:retrieval -- --dataset <folder> --split <name> [--methods ${KNOWN_METHODS.join(',')}] [--budget TOKENS] [--json FILE] [--runs DIR] [--keep] [--cv FOLDS] [--records FILE] [--fit-from FILES] [--reuse-records FILE] [--rm3-cv FOLDS]`);
  process.exit(2);
}

const ROOT_PREFIX = 'bench-retrieval-';
const OWNER_FILE = 'owner.pid';

/**
 * Temp databases of earlier runs whose process is gone (killed while its event loop was busy in a
 * synchronous PGlite statement, when no signal handler can run; each SciFact run leaves ~250 MB).
 */
function sweepAbandonedRoots(): void {
  for (const name of readdirSync(tmpdir())) {
    if (!name.startsWith(ROOT_PREFIX)) continue;
    const root = join(tmpdir(), name);
    let owner: number;
    try {
      owner = Number(readFileSync(join(root, OWNER_FILE), 'utf8'));
    } catch {
      continue; // not made by this CLI (or --keep from an older version): left alone
    }
    if (Number.isInteger(owner) && owner > 0 && !processAlive(owner)) rmSync(root, { recursive: true, force: true });
  }
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The temp database is removed on Ctrl-C too, once the event loop is free to run the handler. */
function removeOnInterrupt(root: string, keep: boolean): void {
  // `on`, not `once`: Ctrl-C reaches this process from the terminal and again relayed by npm/tsx,
  // and a second signal without a handler would kill it before the first one's cleanup ran.
  let interrupted = false;
  const onSignal = () => {
    if (interrupted) return;
    interrupted = true;
    if (!keep) rmSync(root, { recursive: true, force: true });
    console.error(`\ninterrupted${keep ? `; kept ${root}` : ''}`);
    process.exit(130);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
}

const formatPrimary = (dataset: BeirDataset, figure: MethodFigures): string => `${metricOf(dataset)} ${primaryFigure(dataset, figure).toFixed(4)} (${figure.queries} queries, ${figure.errors} failed)`;

async function main(): Promise<void> {
  const options = parseBenchArguments(process.argv.slice(2));
  const dataset = loadBeirDataset(options.dataset, options.split);
  if (options.runsDir) mkdirSync(options.runsDir, { recursive: true });
  sweepAbandonedRoots();
  const root = mkdtempSync(join(tmpdir(), ROOT_PREFIX));
  // --keep hands the folder to the user: no owner file, so no later run sweeps it.
  if (!options.keep) writeFileSync(join(root, OWNER_FILE), String(process.pid));
  removeOnInterrupt(root, options.keep);
  const started = performance.now();
  console.log(`bench:retrieval ${dataset.name}/${options.split}: ${dataset.documents.length} documents, ${dataset.queries.length} queries; ${cpus().length} CPUs, node ${process.version}; ${youngGenerationNote()}`);
  const fitRecords = options.fitFrom ? readRecords(options.fitFrom).filter((record) => record.set !== dataset.name) : undefined;
  const outOfFold: OutOfFoldResult[] = [];
  let records: QueryRecord[] = [];
  const priorRows: AfterMethods | undefined = options.folds !== undefined || fitRecords || options.recordsPath
    ? async (...[bench, environment, runs]: Parameters<AfterMethods>) => {
        const started = performance.now();
        const reused = options.reuseRecords ? reclassified(readRecords([options.reuseRecords]).filter((record) => record.set === dataset.name), dataset, bench.plugins.intentAnalyzer) : undefined;
        if (reused && reused.length !== dataset.queries.length) throw new BenchUsageError(`--reuse-records: ${options.reuseRecords} holds ${reused.length} records of ${dataset.name}, the split has ${dataset.queries.length} queries`);
        records = reused ?? (await collectRecords(bench, environment, runs));
        console.log(`  records (intent, scores, reranker features): ${((performance.now() - started) / 1000).toFixed(1)} s`);
        const plans = [
          ...(options.folds !== undefined ? [{ kind: 'k-fold' as const, validation: { ...DEFAULT_CROSS_VALIDATION, folds: options.folds } }] : []),
          ...(fitRecords ? [{ kind: 'leave-dataset-out' as const, fitRecords, validation: DEFAULT_CROSS_VALIDATION }] : []),
        ];
        for (const plan of plans) {
          const result = await outOfFoldRuns(bench, environment, records, plan, (line) => console.log(line));
          outOfFold.push(result);
          for (const run of result.runs) console.log(`  ${run.method}: ${formatPrimary(dataset, figuresOf(run, dataset))}`);
        }
        return outOfFold.flatMap((result) => result.runs);
      }
    : undefined;
  const rm3Rows: AfterMethods | undefined = options.rm3Folds
    ? async (bench, environment) => {
        const started = performance.now();
        const database = databaseOf(bench.plugins);
        const bm25 = bench.retriever('bm25');
        if (!database || !bm25) throw new BenchUsageError('--rm3-cv needs the bm25 retriever and a PgStore database');
        const search = await searchRm3Options(database, bm25, environment, options.rm3Folds!, DEFAULT_CROSS_VALIDATION.seed, (line) => console.log(line));
        const ranked = [...search.grid].sort((left, right) => right.ndcg10 - left.ndcg10);
        console.log(`  rm3 grid (${search.grid.length} points, in sample, for reference only): best ${optionLabel(ranked[0].options)} ${ranked[0].ndcg10.toFixed(4)}; ${((performance.now() - started) / 1000).toFixed(1)} s`);
        for (const { options: point, ndcg10 } of search.grid) console.log(`    ${optionLabel(point)}: ${ndcg10.toFixed(4)}`);
        return [search.run];
      }
    : undefined;
  const afterMethods: AfterMethods | undefined = priorRows || rm3Rows ? async (...parameters) => [...((await priorRows?.(...parameters)) ?? []), ...((await rm3Rows?.(...parameters)) ?? [])] : undefined;
  const result = await runBench(dataset, { methods: options.methods, budget: options.budget, root, keep: options.keep, log: (line) => console.log(line), progress: process.stderr.isTTY ? (line) => process.stderr.write(line) : undefined, ...(afterMethods ? { afterMethods } : {}) }).catch((error: unknown) => {
    if (!options.keep) rmSync(root, { recursive: true, force: true }); // runBench removes it itself once ingest succeeded
    throw error;
  });
  console.log('');
  console.log(formatTable(dataset, result.figures, result.ingest, options.budget));
  for (const entry of outOfFold) console.log(`\n${formatOutOfFold(dataset, result.figures, entry)}`);
  console.log(`total ${((performance.now() - started) / 1000).toFixed(1)} s`);
  if (options.recordsPath) writeFileSync(options.recordsPath, `${JSON.stringify({ dataset: dataset.name, split: options.split, records })}\n`);
  if (options.runsDir) {
    for (const run of result.runs.filter((entry) => !entry.skipped)) {
      writeFileSync(join(options.runsDir, `${dataset.name}-${options.split}-${run.method.replace(/[^a-z0-9-]+/gi, '-').replace(/-+$/, '')}.json`), JSON.stringify(Object.fromEntries(run.runs.map((queryRun) => [queryRun.queryId, queryRun.ranked]))));
    }
  }
  if (options.jsonPath) {
    const report = { dataset: dataset.name, split: options.split, folder: dataset.folder, queries: dataset.queries.length, documents: dataset.documents.length, budget: options.budget, ingest: result.ingest, methods: result.figures, machine: { cpus: cpus().length, model: cpus()[0]?.model, node: process.version }, date: new Date().toISOString() };
    writeFileSync(options.jsonPath, `${JSON.stringify(report, null, 2)}\n`);
  }
}

main().catch((error: unknown) => {
  if (error instanceof DatasetError || error instanceof BenchUsageError) usage(error.message);
  console.error(error);
  process.exit(1);
});
