/**
 * The command line of bench:retrieval, checked before anything is ingested: a typo must cost a
 * line of output, not the 30 s of loading a corpus followed by a "skipped" row or a stack trace.
 */
import { existsSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { DEFAULT_BUDGET, DEFAULT_METHODS } from './run-bench';

/** What bootstrap registers (server/bootstrap.ts; llm-rerank only with a hosted tier) plus the planner. */
export const KNOWN_METHODS: readonly string[] = Object.freeze([...DEFAULT_METHODS, 'fulltext', 'exact', 'llm-rerank']);

export interface BenchArguments {
  readonly dataset: string;
  readonly split: string;
  readonly methods: readonly string[];
  readonly budget: number;
  readonly jsonPath?: string;
  readonly runsDir?: string;
  readonly keep: boolean;
  /** k of the k-fold out-of-fold rows (issue 16); undefined = in-sample rows only. */
  readonly folds?: number;
  /** Write the per-query records (intent, scores, reranker features) here, for --fit-from and fit-priors.ts. */
  readonly recordsPath?: string;
  /** Records files of OTHER sets: fit on them and score this set with that fit (leave one dataset out). */
  readonly fitFrom?: readonly string[];
  /** This set's records from an earlier --records run of the same tree: the methods' scores and reranker features are read, not recomputed. */
  readonly reuseRecords?: string;
  /** k of rm3's options chosen by k-fold cross-validation inside the split (rm3-option-search.ts). */
  readonly rm3Folds?: number;
}

/** A mistake on the command line; the message names the flag and what was expected. */
export class BenchUsageError extends Error {}

const fail = (message: string): never => {
  throw new BenchUsageError(message);
};

export function parseBenchArguments(argv: readonly string[]): BenchArguments {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: {
        dataset: { type: 'string' },
        split: { type: 'string' },
        methods: { type: 'string' },
        budget: { type: 'string' },
        json: { type: 'string' },
        runs: { type: 'string' },
        keep: { type: 'boolean' },
        cv: { type: 'string' },
        records: { type: 'string' },
        'fit-from': { type: 'string' },
        'reuse-records': { type: 'string' },
        'rm3-cv': { type: 'string' },
      },
    }));
  } catch (error) {
    // node:util names the flag: "Option '--budget <value>' argument missing", "Unknown option '--top'".
    return fail((error as Error).message);
  }
  const text = (name: string) => (typeof values[name] === 'string' ? (values[name] as string).trim() : undefined);
  const dataset = text('dataset') || fail('--dataset is required: a folder in the BEIR layout (corpus.jsonl, queries.jsonl, qrels/<split>.tsv)');
  const split = text('split') || fail('--split is required: the name of a qrels/<split>.tsv file');
  const methods = (text('methods') ?? DEFAULT_METHODS.join(',')).split(',').map((method) => method.trim()).filter(Boolean);
  if (methods.length === 0) fail(`--methods is empty; expected a comma-separated list of ${KNOWN_METHODS.join(', ')}`);
  const unknown = methods.filter((method) => !KNOWN_METHODS.includes(method));
  if (unknown.length > 0) fail(`--methods: unknown method ${unknown.map((method) => `"${method}"`).join(', ')}; expected some of ${KNOWN_METHODS.join(', ')}`);
  const budgetText = text('budget');
  const budget = budgetText === undefined ? DEFAULT_BUDGET : Number(budgetText);
  if (!Number.isInteger(budget) || budget <= 0) fail(`--budget must be a positive integer (tokens), got "${budgetText}"`);
  const jsonPath = text('json');
  if (jsonPath !== undefined) writableFileOrFail('--json', jsonPath);
  const runsDir = text('runs');
  if (runsDir !== undefined && existsSync(runsDir) && !statSync(runsDir).isDirectory()) fail(`--runs: ${runsDir} exists and is not a directory`);
  const foldsText = text('cv');
  const folds = foldsText === undefined ? undefined : Number(foldsText);
  if (folds !== undefined && (!Number.isInteger(folds) || folds < 2)) fail(`--cv must be an integer ≥ 2 (the number of folds), got "${foldsText}"`);
  const rm3FoldsText = text('rm3-cv');
  const rm3Folds = rm3FoldsText === undefined ? undefined : Number(rm3FoldsText);
  if (rm3Folds !== undefined && (!Number.isInteger(rm3Folds) || rm3Folds < 2)) fail(`--rm3-cv must be an integer ≥ 2 (the number of folds), got "${rm3FoldsText}"`);
  const recordsPath = text('records');
  if (recordsPath !== undefined) writableFileOrFail('--records', recordsPath);
  const fitFrom = text('fit-from')?.split(',').map((path) => path.trim()).filter(Boolean);
  if (fitFrom !== undefined && fitFrom.length === 0) fail('--fit-from is empty; expected records files written by --records');
  for (const path of fitFrom ?? []) if (!existsSync(path) || statSync(path).isDirectory()) fail(`--fit-from: ${path} is not a file; expected a records file written by --records`);
  const reuseRecords = text('reuse-records');
  if (reuseRecords !== undefined && (!existsSync(reuseRecords) || statSync(reuseRecords).isDirectory())) fail(`--reuse-records: ${reuseRecords} is not a file; expected a records file written by --records`);
  if ((folds !== undefined || fitFrom !== undefined || recordsPath !== undefined) && !methods.includes('bm25')) fail('--cv, --records and --fit-from fit priors relative to bm25: --methods must include bm25');
  return Object.freeze({
    dataset, split, methods: Object.freeze(methods), budget, ...(jsonPath ? { jsonPath } : {}), ...(runsDir ? { runsDir } : {}), keep: values.keep === true,
    ...(folds !== undefined ? { folds } : {}), ...(recordsPath ? { recordsPath } : {}), ...(fitFrom ? { fitFrom: Object.freeze(fitFrom) } : {}), ...(reuseRecords ? { reuseRecords } : {}),
    ...(rm3Folds !== undefined ? { rm3Folds } : {}),
  });
}

function writableFileOrFail(flag: string, path: string): void {
  const folder = dirname(resolve(path));
  if (!existsSync(folder) || !statSync(folder).isDirectory()) fail(`${flag}: folder ${folder} does not exist`);
  if (existsSync(path) && statSync(path).isDirectory()) fail(`${flag}: ${path} is a directory; expected a file path`);
}
