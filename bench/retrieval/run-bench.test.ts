/**
 * The whole bench on a tiny dataset in the BEIR layout, with an arbitrary split name: real
 * PGlite, the runtime opened through server/bootstrap, every method including the planner.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FILLER, RUNBOOK } from '../../server/adapters/embeddings/testing/fixture-texts';
import { loadBeirDataset } from './beir-dataset';
import { type BenchResult, runBench } from './run-bench';
import { formatTable } from './report-table';

const root = mkdtempSync(join(tmpdir(), 'bench-tiny-'));
let result: BenchResult;

const QUERIES = [
  { _id: 'q-cert', text: 'When do TLS certificates expire?', metadata: { answers: ['ninety days', '90 days'] } },
  { _id: 'q-disk', text: 'what to do when the storage volume is full', metadata: { answers: ['expand the storage'] } },
  { _id: 'q-none', text: 'zebra xylophone quartz', metadata: { answers: ['unfindable answer'] } },
  { _id: 'q-unjudged', text: 'not in this split' },
];

beforeAll(async () => {
  const folder = join(root, 'tiny ops');
  mkdirSync(join(folder, 'qrels'), { recursive: true });
  const documents = [...RUNBOOK, ...FILLER].map((document) => ({ _id: document.uri, title: document.title, text: document.text }));
  writeFileSync(join(folder, 'corpus.jsonl'), documents.map((document) => JSON.stringify(document)).join('\n'));
  writeFileSync(join(folder, 'queries.jsonl'), QUERIES.map((query) => JSON.stringify(query)).join('\n'));
  writeFileSync(join(folder, 'qrels', 'held-out.tsv'), 'query-id\tcorpus-id\tscore\nq-cert\tcertificates.md\t1\nq-disk\tdisk.md\t1\nq-disk\tbackups.md\t1\nq-none\tdns.md\t1\n');
  const dataset = loadBeirDataset(folder, 'held-out');
  result = await runBench(dataset, { methods: ['bm25', 'dense', 'hybrid', 'rerank', 'rm3', 'no-such-method', 'planner'], budget: 60 });
}, 180_000);

afterAll(() => rmSync(root, { recursive: true, force: true }));

const figure = (method: string) => result.figures.find((entry) => entry.method === method)!;

describe('bench:retrieval on a tiny BEIR folder', () => {
  it('ingests every document through the store and times ingest apart from embedding', () => {
    expect(result.ingest.chunks).toBe(RUNBOOK.length + FILLER.length);
    expect(result.ingest.chunksPerSecond).toBeGreaterThan(0);
    expect(result.ingest.embedding).toMatchObject({ embedderId: 'sif-sg-100d', chunks: RUNBOOK.length + FILLER.length });
  });

  it('scores only the queries with qrels in the split, with BEIR nDCG and recall', () => {
    const bm25 = figure('bm25');
    expect(bm25.queries).toBe(3);
    const ranked = new Map(result.runs.find((run) => run.method === 'bm25')!.runs.map((run) => [run.queryId, run.ranked]));
    expect(ranked.get('q-cert')![0]).toBe('certificates.md');
    expect(ranked.has('q-unjudged')).toBe(false);
    // q-none finds nothing relevant: at most 2 of 3 queries can score.
    expect(bm25.ndcg10).toBeLessThanOrEqual(2 / 3 + 1e-9);
    expect(bm25.recall['R@100']).toBeLessThanOrEqual(2 / 3 + 1e-9);
    expect(bm25.ndcg10).toBeGreaterThan(0.3);
  });

  it('reports answer-in-context within the budget, and never more context than the budget', () => {
    for (const method of ['bm25', 'dense', 'hybrid', 'rerank', 'rm3', 'planner']) {
      const entry = figure(method);
      expect(entry.skipped, method).toBeUndefined();
      expect(entry.errors, `${method}: ${entry.firstError}`).toBe(0);
      expect(entry.answerInContext, method).toBeDefined();
      expect(entry.answerInContext!, method).toBeLessThanOrEqual(2 / 3 + 1e-9);
      expect(entry.meanContextTokens, method).toBeLessThanOrEqual(60);
      expect(entry.latencyMs.p50, method).toBeGreaterThan(0);
    }
    expect(figure('bm25').answerInContext).toBeGreaterThan(0);
  });

  it('times single retrievers again once warm, at the default depth and at 100; the planner is timed once', () => {
    expect(Object.keys(figure('bm25').warmP50Ms ?? {})).toEqual(['20', '100']);
    for (const p50 of Object.values(figure('bm25').warmP50Ms!)) expect(p50).toBeGreaterThan(0);
    expect(figure('planner').warmP50Ms).toBeUndefined();
  });

  it('skips a method nobody registered, naming the ones that are', () => {
    expect(figure('no-such-method').skipped).toMatch(/^no retriever "no-such-method" is registered \(registered: bm25, .*rerank/);
  });

  it('runs the planner through the runtime and tallies what it chose', () => {
    const planner = figure('planner');
    expect(Object.values(planner.choices ?? {}).reduce((sum, count) => sum + count, 0)).toBe(3);
    const table = formatTable(loadBeirDataset(join(root, 'tiny ops'), 'held-out'), result.figures, result.ingest, 60);
    expect(table).toContain('| planner |');
    expect(table).toContain('no-such-method | skipped');
    expect(table).toMatch(/planner chose: /);
  });
});
