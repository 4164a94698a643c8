/**
 * Recall@2/5/10 of bm25 against the graph retriever's variants on a BEIR-layout multi-hop set:
 *   npx tsx bench/graph-probe.ts --dataset ../shared/datasets/musique-train100 [--split train] [--run-dir DIR]
 * Ingests the corpus (one chunk per document) into a temporary PGlite through PgStore, builds the
 * graph and identifier indexes, then ranks every query with qrels. With --run-dir it writes each
 * method's ranking as JSON {query: [doc, …]} for /work/shared/scripts/eval-run.py to re-score.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import type { RetrieverPlugin } from '../server/runtime/contracts/retriever';
import { openStores } from '../server/adapters/db/open-stores';
import { CorpusStats } from '../server/adapters/db/corpus-stats';
import { setupGraphRetrieval } from '../server/adapters/graph/graph-setup';
import { GraphRetriever } from '../server/adapters/retrievers/graph-retriever';

const { values } = parseArgs({
  options: { dataset: { type: 'string' }, split: { type: 'string', default: 'train' }, 'run-dir': { type: 'string' }, 'data-dir': { type: 'string' } },
});
if (!values.dataset) throw new Error('--dataset FOLDER is required');
const folder = path.resolve(values.dataset);
const lines = (file: string) => readFileSync(path.join(folder, file), 'utf8').split('\n').filter((line) => line.trim() !== '').map((line) => JSON.parse(line));
const documents = lines('corpus.jsonl') as { _id: string; title: string; text: string }[];
const qrels = new Map<string, Set<string>>();
for (const line of readFileSync(path.join(folder, 'qrels', `${values.split}.tsv`), 'utf8').split('\n').slice(1)) {
  const [query, document, score] = line.split('\t');
  if (document && Number(score) > 0) qrels.set(query, (qrels.get(query) ?? new Set()).add(document));
}
const queries = (lines('queries.jsonl') as { _id: string; text: string }[]).filter((query) => qrels.has(query._id));

const root = values['data-dir'] ?? mkdtempSync(path.join(tmpdir(), 'graph-probe-'));
const stores = await openStores({ dataDir: path.join(root, 'pglite') });
const started = performance.now();
await stores.store.ingest(
  { name: 'corpus', kind: 'docs' },
  documents.map((document) => ({ uri: document._id, ordinal: 0, title: document.title, text: document.text, tokens: Math.ceil(document.text.length / 4) })),
  `probe-${documents.length}`,
);
const ingestSeconds = (performance.now() - started) / 1000;
const corpus = new CorpusStats(stores.database);
await corpus.refresh();
const bm25 = stores.retrievers[0];
const { cache, indexPending } = setupGraphRetrieval(stores.database, corpus);
const indexStarted = performance.now();
const reports = await indexPending();
console.log(`ingest ${documents.length} docs ${ingestSeconds.toFixed(1)} s; derived indexes ${((performance.now() - indexStarted) / 1000).toFixed(2)} s`, reports.map((report) => `${report.index}=${report.items}`).join(' '));

const uriOf = new Map((await stores.database.query<{ id: string; uri: string }>(sql`select id, uri from chunks where is_current`)).map((row) => [row.id, row.uri]));
const methods: Record<string, RetrieverPlugin> = {
  bm25,
  'graph(entities)': new GraphRetriever(stores.database, corpus, cache),
  ...Object.fromEntries(
    [0, 0.05, 0.1, 0.2].map((share) => [`graph(+bm25 seeds ${share})`, new GraphRetriever(stores.database, corpus, cache, { passageSeeder: bm25, passageSeedShare: share })]),
  ),
};

const K = [2, 5, 10];
for (const [name, retriever] of Object.entries(methods)) {
  const recall = new Map(K.map((k) => [k, 0]));
  const run: Record<string, string[]> = {};
  const latencies: number[] = [];
  // A first pass warms the JIT and the graph cache; only the second pass is timed.
  for (const query of queries) await retriever.search({ text: query.text, k: 100, sources: ['corpus'] });
  const cpuBefore = process.cpuUsage();
  for (const query of queries) {
    const before = performance.now();
    const hits = await retriever.search({ text: query.text, k: 100, sources: ['corpus'] });
    latencies.push(performance.now() - before);
    const ranked = hits.map((hit) => uriOf.get(hit.chunkId) ?? hit.chunkId);
    run[query._id] = ranked;
    const gold = qrels.get(query._id) ?? new Set();
    for (const k of K) recall.set(k, (recall.get(k) ?? 0) + ranked.slice(0, k).filter((id) => gold.has(id)).length / gold.size);
  }
  // PGlite runs in this process, so CPU time covers the database too and is far less sensitive than
  // wall time to other work on the machine.
  const cpu = process.cpuUsage(cpuBefore);
  const cpuMs = (cpu.user + cpu.system) / 1000 / queries.length;
  latencies.sort((left, right) => left - right);
  const figures = K.map((k) => `R@${k} ${((100 * (recall.get(k) ?? 0)) / queries.length).toFixed(1)}`).join('  ');
  console.log(`${name.padEnd(28)} ${figures}  p50 ${latencies[latencies.length >> 1].toFixed(1)} ms  p95 ${latencies[Math.floor(latencies.length * 0.95)].toFixed(1)} ms  cpu ${cpuMs.toFixed(1)} ms/query`);
  if (values['run-dir']) {
    mkdirSync(values['run-dir'], { recursive: true });
    writeFileSync(path.join(values['run-dir'], `${name.replace(/[^a-z0-9]+/gi, '-')}.json`), JSON.stringify(run));
  }
}
await stores.close();
if (!values['data-dir']) rmSync(root, { recursive: true, force: true });
