import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { availableSplits, DatasetError, loadBeirDataset } from './beir-dataset';

const root = mkdtempSync(join(tmpdir(), 'beir-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function writeDataset(name: string, files: Record<string, string>): string {
  const folder = join(root, name);
  mkdirSync(join(folder, 'qrels'), { recursive: true });
  for (const [file, text] of Object.entries(files)) writeFileSync(join(folder, file), text);
  return folder;
}

const lines = (rows: readonly object[]) => `${rows.map((row) => JSON.stringify(row)).join('\n')}\n`;

describe('BEIR dataset loader', () => {
  const folder = writeDataset('tiny-set', {
    'corpus.jsonl': lines([
      { _id: 'd1', title: 'Alpha', text: 'first', metadata: {} },
      { _id: 'd2', title: 'Beta', text: 'second' },
      { _id: 7, text: 'numeric id, no title' },
    ]),
    'queries.jsonl': lines([
      { _id: 'q1', text: 'who?', metadata: { answers: ['Ada', 'A. Lovelace'], type: 'bridge' } },
      { _id: 'q2', text: 'no qrels in this split' },
      { _id: 'q3', text: 'what?', metadata: { answers: [] } },
    ]),
    'qrels/dev.tsv': 'query-id\tcorpus-id\tscore\nq1\td1\t1\nq1\t7\t1\nq3\td2\t1\nq3\td1\t0\n',
    'qrels/test.tsv': 'query-id\tcorpus-id\tscore\nq2\td2\t1\n',
  });

  it('keeps only queries with qrels in the split, with answers and type from metadata', () => {
    const dataset = loadBeirDataset(folder, 'dev');
    expect(dataset.name).toBe('tiny-set');
    expect(dataset.documents.map((document) => [document.id, document.title])).toEqual([['d1', 'Alpha'], ['d2', 'Beta'], ['7', '']]);
    expect(dataset.queries).toEqual([
      { id: 'q1', text: 'who?', answers: ['Ada', 'A. Lovelace'], type: 'bridge' },
      { id: 'q3', text: 'what?' },
    ]);
    expect([...dataset.qrels.get('q1')!]).toEqual(['d1', '7']);
    // Score 0 is not relevant.
    expect([...dataset.qrels.get('q3')!]).toEqual(['d2']);
  });

  it('takes any split name and lists the available ones when asked for a missing one', () => {
    expect(loadBeirDataset(folder, 'test').queries.map((query) => query.id)).toEqual(['q2']);
    expect(availableSplits(folder)).toEqual(['dev', 'test']);
    expect(() => loadBeirDataset(folder, 'train')).toThrow(/no qrels for split "train".*available: dev, test/);
  });

  it('names what is wrong with a folder that is not in the layout', () => {
    const broken = writeDataset('broken', { 'corpus.jsonl': '{"_id": "a", "text": "x"}\nnot json\n', 'queries.jsonl': lines([{ _id: 'q', text: 'x' }]), 'qrels/train.tsv': 'q\ta\t1\n' });
    expect(() => loadBeirDataset(broken, 'train')).toThrow(DatasetError);
    expect(() => loadBeirDataset(broken, 'train')).toThrow(/corpus.jsonl:2: not JSON/);
    expect(() => loadBeirDataset(join(root, 'nowhere'), 'train')).toThrow(/has no corpus.jsonl/);
    const duplicate = writeDataset('duplicate', { 'corpus.jsonl': lines([{ _id: 'a', text: 'x' }, { _id: 'a', text: 'y' }]), 'queries.jsonl': lines([{ _id: 'q', text: 'x' }]), 'qrels/train.tsv': 'q\ta\t1\n' });
    expect(() => loadBeirDataset(duplicate, 'train')).toThrow(/duplicate _id "a"/);
  });
});
