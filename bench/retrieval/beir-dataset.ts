/**
 * Reads a dataset folder in the BEIR layout (corpus.jsonl, queries.jsonl, qrels/<split>.tsv).
 * Any folder of that layout works; only queries with qrels in the split are kept, as BEIR does.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';

export interface BeirDocument {
  readonly id: string;
  readonly title: string;
  readonly text: string;
}

export interface BeirQuery {
  readonly id: string;
  readonly text: string;
  /** Gold answers (first canonical, the rest aliases) when the set has them (metadata.answers). */
  readonly answers?: readonly string[];
  readonly type?: string;
}

export interface BeirDataset {
  readonly name: string;
  readonly folder: string;
  readonly split: string;
  readonly documents: readonly BeirDocument[];
  /** Queries that have at least one relevant document in the split, in queries.jsonl order. */
  readonly queries: readonly BeirQuery[];
  /** query id → relevant document ids (score > 0). */
  readonly qrels: ReadonlyMap<string, ReadonlySet<string>>;
}

export class DatasetError extends Error {}

function readJsonLines(path: string): Record<string, unknown>[] {
  const rows: Record<string, unknown>[] = [];
  readFileSync(path, 'utf8').split('\n').forEach((line, index) => {
    if (line.trim() === '') return;
    try {
      rows.push(JSON.parse(line) as Record<string, unknown>);
    } catch (error) {
      throw new DatasetError(`${path}:${index + 1}: not JSON (${(error as Error).message})`);
    }
  });
  return rows;
}

const text = (value: unknown): string => (typeof value === 'string' ? value : value === undefined || value === null ? '' : String(value));

export function readQrels(path: string): Map<string, Set<string>> {
  const qrels = new Map<string, Set<string>>();
  for (const [index, line] of readFileSync(path, 'utf8').split('\n').entries()) {
    if (line.trim() === '' || (index === 0 && line.startsWith('query-id'))) continue;
    const [queryId, documentId, score] = line.replace(/\r$/, '').split('\t');
    if (documentId === undefined) throw new DatasetError(`${path}:${index + 1}: expected "query-id<TAB>corpus-id<TAB>score"`);
    if (score !== undefined && !(Number(score) > 0)) continue;
    const relevant = qrels.get(queryId) ?? new Set<string>();
    relevant.add(documentId);
    qrels.set(queryId, relevant);
  }
  return qrels;
}

export function availableSplits(folder: string): string[] {
  const qrelsFolder = join(folder, 'qrels');
  return existsSync(qrelsFolder) ? readdirSync(qrelsFolder).filter((file) => file.endsWith('.tsv')).map((file) => file.slice(0, -4)).sort() : [];
}

export function loadBeirDataset(folderPath: string, split: string): BeirDataset {
  const folder = resolve(folderPath);
  for (const file of ['corpus.jsonl', 'queries.jsonl']) {
    if (!existsSync(join(folder, file))) throw new DatasetError(`${folder} has no ${file}: expected the BEIR layout (corpus.jsonl, queries.jsonl, qrels/<split>.tsv)`);
  }
  const qrelsPath = join(folder, 'qrels', `${split}.tsv`);
  if (!existsSync(qrelsPath)) throw new DatasetError(`no qrels for split "${split}" in ${folder} (available: ${availableSplits(folder).join(', ') || 'none'})`);
  const qrels = readQrels(qrelsPath);
  const seen = new Set<string>();
  const documents = readJsonLines(join(folder, 'corpus.jsonl')).map((row) => {
    const id = text(row._id);
    if (id === '' || seen.has(id)) throw new DatasetError(`corpus.jsonl: missing or duplicate _id ${JSON.stringify(id)}`);
    seen.add(id);
    return Object.freeze({ id, title: text(row.title), text: text(row.text) });
  });
  const queries = readJsonLines(join(folder, 'queries.jsonl'))
    .filter((row) => qrels.has(text(row._id)))
    .map((row) => {
      const metadata = (row.metadata ?? {}) as Record<string, unknown>;
      const answers = Array.isArray(metadata.answers) ? metadata.answers.map(text).filter((answer) => answer.trim() !== '') : [];
      return Object.freeze({
        id: text(row._id),
        text: text(row.text),
        ...(answers.length > 0 ? { answers: Object.freeze(answers) } : {}),
        ...(typeof metadata.type === 'string' ? { type: metadata.type } : {}),
      });
    });
  if (queries.length === 0) throw new DatasetError(`no query in queries.jsonl has qrels in split "${split}"`);
  return Object.freeze({ name: basename(folder), folder, split, documents: Object.freeze(documents), queries: Object.freeze(queries), qrels });
}
