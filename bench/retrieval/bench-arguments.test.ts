import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BenchUsageError, parseBenchArguments } from './bench-arguments';

const root = mkdtempSync(join(tmpdir(), 'bench-args-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const refusal = (argv: string[]): string => {
  try {
    parseBenchArguments(argv);
  } catch (error) {
    expect(error).toBeInstanceOf(BenchUsageError);
    return (error as Error).message;
  }
  throw new Error(`expected ${argv.join(' ')} to be refused`);
};

describe('bench:retrieval command line', () => {
  it('reads every flag, with the defaults for the unset ones', () => {
    expect(parseBenchArguments(['--dataset', 'd', '--split', 'train'])).toEqual({ dataset: 'd', split: 'train', methods: ['bm25', 'dense', 'hybrid', 'rerank', 'rm3', 'graph', 'planner'], budget: 3000, keep: false });
    expect(parseBenchArguments(['--dataset=d', '--split', 'dev', '--methods', 'bm25, planner', '--budget', '500', '--json', join(root, 'r.json'), '--runs', join(root, 'runs'), '--keep'])).toMatchObject({
      methods: ['bm25', 'planner'], budget: 500, jsonPath: join(root, 'r.json'), runsDir: join(root, 'runs'), keep: true,
    });
  });

  it('reads the out-of-fold flags: folds, a records file to write, other sets\' records to fit on', () => {
    const records = join(root, 'other.records.json');
    writeFileSync(records, '{"records":[]}');
    expect(parseBenchArguments(['--dataset', 'd', '--split', 'train', '--cv', '5', '--records', join(root, 'mine.json'), '--fit-from', `${records}, ${records}`])).toMatchObject({ folds: 5, recordsPath: join(root, 'mine.json'), fitFrom: [records, records] });
    expect(parseBenchArguments(['--dataset', 'd', '--split', 'train', '--cv', '5', '--reuse-records', records])).toMatchObject({ reuseRecords: records });
    expect(refusal(['--dataset', 'd', '--split', 'train', '--reuse-records', root])).toContain('--reuse-records: ');
    expect(refusal(['--dataset', 'd', '--split', 'train', '--cv', '1'])).toBe('--cv must be an integer ≥ 2 (the number of folds), got "1"');
    expect(refusal(['--dataset', 'd', '--split', 'train', '--fit-from', join(root, 'missing.json')])).toContain('--fit-from: ');
    expect(refusal(['--dataset', 'd', '--split', 'train', '--cv', '5', '--methods', 'rerank,planner'])).toMatch(/^--cv, --records and --fit-from fit priors relative to bm25/);
  });

  it('reads --rm3-cv, the folds of rm3\'s option search, and refuses fewer than two', () => {
    expect(parseBenchArguments(['--dataset', 'd', '--split', 'train', '--methods', 'rm3', '--rm3-cv', '5'])).toMatchObject({ methods: ['rm3'], rm3Folds: 5 });
    expect(refusal(['--dataset', 'd', '--split', 'train', '--rm3-cv', '1'])).toBe('--rm3-cv must be an integer ≥ 2 (the number of folds), got "1"');
    expect(refusal(['--dataset', 'd', '--split', 'train', '--rm3-cv', 'x'])).toContain('--rm3-cv must be an integer');
  });

  it('refuses, before anything is loaded, naming the flag and what it expected', () => {
    expect(refusal(['--split', 'train'])).toMatch(/^--dataset is required/);
    expect(refusal(['--dataset', 'd'])).toMatch(/^--split is required/);
    expect(refusal(['--dataset', '--split', 'train'])).toContain("'--dataset'");
    expect(refusal(['--dataset', 'd', '--split', 'train', '--budget'])).toContain("--budget <value>' argument missing");
    expect(refusal(['--dataset', 'd', '--split', 'train', '--budget', 'abc'])).toBe('--budget must be a positive integer (tokens), got "abc"');
    expect(refusal(['--dataset', 'd', '--split', 'train', '--budget', '1.5'])).toContain('--budget must be a positive integer');
    expect(refusal(['--dataset', 'd', '--split', 'train', '--methods', 'bm25,foo'])).toMatch(/^--methods: unknown method "foo"; expected some of bm25, dense/);
    expect(refusal(['--dataset', 'd', '--split', 'train', '--methods', ','])).toMatch(/^--methods is empty/);
    expect(refusal(['--dataset', 'd', '--split', 'train', '--json', '/nonexistent/dir/x.json'])).toBe('--json: folder /nonexistent/dir does not exist');
    expect(refusal(['--dataset', 'd', '--split', 'train', '--json', root])).toContain('is a directory; expected a file path');
    expect(refusal(['--dataset', 'd', '--split', 'train', '--top', '5'])).toContain("Unknown option '--top'");
  });
});
