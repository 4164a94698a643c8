import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EMBEDDER_CONTRACT, type EmbedderPlugin } from '../../runtime/contracts/embedder';
import type { IngestChunk } from '../../runtime/contracts/store';
import { hashedBagOfWords } from '../../testing/loopback-embeddings-server';
import { CorpusStats } from '../db/corpus-stats';
import { openStores, type Stores } from '../db/open-stores';
import { setupDenseRetrieval } from '../embeddings/dense-setup';
import { embedPending } from '../embeddings/embed-pending';
import { hnswIndexName } from '../embeddings/embedding-table';
import { SifEmbedder } from '../embeddings/sif-embedder';
import { loadSifState, needsRefit } from '../embeddings/sif-state-store';
import { FILLER, PARAPHRASE_QUERIES, RUNBOOK } from '../embeddings/testing/fixture-texts';
import { loadFixtureVectors } from '../embeddings/testing/fixture-vectors';
import { DenseRetriever, SIF_RECALL_PRIOR } from './dense-retriever';

const root = mkdtempSync(path.join(tmpdir(), 'cr-dense-'));
let stores: Stores;
let sif: SifEmbedder;
const vectors = loadFixtureVectors();

const chunk = (uri: string, title: string, text: string): IngestChunk => ({ uri, ordinal: 0, title, text, tokens: text.split(/\s+/).length });

/** A second, unrelated vector space (64-d hashed words): what switching the embedder looks like. */
const hashingEmbedder = (local: boolean): EmbedderPlugin & { local: boolean } => ({
  contract: EMBEDDER_CONTRACT,
  id: 'hash-64d',
  dimensions: 64,
  local,
  embed: async (texts) => texts.map((text) => Float32Array.from(hashedBagOfWords(text, 64))),
});

const fingerprint = async (embedderId: string) =>
  (await stores.database.query<{ rows: number; digest: string | null }>(sql`
    select count(*)::int as rows, md5(string_agg(chunk_id || embedding::text, ',' order by chunk_id)) as digest
    from chunk_embeddings where embedder_id = ${embedderId}`))[0];

beforeAll(async () => {
  sif = new SifEmbedder(async () => vectors);
  stores = await openStores({ dataDir: path.join(root, 'pglite'), dense: { embedder: sif } });
  await stores.store.ingest({ name: 'runbooks', kind: 'docs' }, RUNBOOK.map((doc) => chunk(doc.uri, doc.title, doc.text)), 'runbooks-1');
  await stores.store.ingest({ name: 'notes', kind: 'docs' }, FILLER.map((doc) => chunk(doc.uri, doc.title, doc.text)), 'notes-1');
  // Version 1 talks about backups; version 2 replaces it. Only version 2 may be found.
  await stores.store.ingest({ name: 'versioned', kind: 'docs' }, [chunk('v.md', 'Archive', 'Nightly copies of the records are kept for a month.')], 'v-1');
  await stores.store.ingest({ name: 'versioned', kind: 'docs' }, [chunk('v.md', 'Archive', 'The football team won the championship.')], 'v-2');
});

afterAll(async () => {
  await stores?.close();
  rmSync(root, { recursive: true, force: true });
});

const ALL = ['runbooks', 'notes', 'versioned'];

describe('dense retriever on PGlite + pgvector', () => {
  it('is unavailable until chunks are embedded, then embeds every current chunk once', async () => {
    expect(stores.dense.capabilities()).toMatchObject({ method: 'dense', available: false, unavailableReason: 'no current chunk has a sif-sg-100d embedding yet' });
    const report = await stores.embedChunks();
    expect(report).toMatchObject({ embedderId: 'sif-sg-100d', embedded: RUNBOOK.length + FILLER.length + 1, includedSensitive: true });
    expect((await stores.embedChunks()).embedded).toBe(0);
    expect(stores.dense.capabilities()).toMatchObject({ available: true, requires: ['vector'] });
    expect((await loadSifState(stores.database, 'sif-sg-100d'))?.textCount).toBe(RUNBOOK.length + FILLER.length + 1);
  });

  it('ranks the paraphrase-matching chunk near the top', async () => {
    for (const { query, expected } of PARAPHRASE_QUERIES) {
      const hits = await stores.dense.search({ text: query, k: 3, sources: ALL });
      expect(hits.slice(0, 2).map((hit) => hit.title), query).toContain(RUNBOOK.find((doc) => doc.uri === expected)!.title);
    }
  });

  it('returns bm25-shaped Hits: 1-based ranks, descending cosine in (0, 1], current version, method dense', async () => {
    const hits = await stores.dense.search({ text: 'renew the expiring TLS certificates', k: 5, sources: ALL });
    const versions = new Map((await stores.store.listSources()).map((source) => [source.name, source.versionId]));
    expect(hits[0]).toMatchObject({ title: 'Certificates', sourceName: 'runbooks', sourceKind: 'docs', method: 'dense', rank: 1 });
    hits.forEach((hit, index) => {
      expect(hit.rank).toBe(index + 1);
      expect(hit.score).toBeGreaterThan(0);
      expect(hit.score).toBeLessThanOrEqual(1 + 1e-6);
      if (index > 0) expect(hit.score).toBeLessThanOrEqual(hits[index - 1].score);
      expect(hit.sourceVersionId).toBe(versions.get(hit.sourceName));
      expect(hit.chunkId).toMatch(/^chk_/);
    });
  });

  it('searches only current chunks of the requested sources', async () => {
    const scoped = await stores.dense.search({ text: 'how long are the nightly copies of our records retained', k: 10, sources: ['versioned'] });
    expect(scoped.map((hit) => hit.text)).toEqual(['The football team won the championship.']);
    const notes = await stores.dense.search({ text: 'snow and rain in the mountains', k: 10, sources: ['notes'] });
    expect(notes.length).toBeGreaterThan(0);
    expect(new Set(notes.map((hit) => hit.sourceName))).toEqual(new Set(['notes']));
    expect(await stores.dense.search({ text: 'disk full', k: 10, sources: [] })).toEqual([]);
    expect(await stores.dense.search({ text: 'zzqx ???', k: 10, sources: ALL })).toEqual([]);
    expect(await stores.dense.search({ text: 'disk', k: 0, sources: ALL })).toEqual([]);
  });

  it('refits SIF statistics once the corpus doubled, re-embedding every chunk under them', async () => {
    const before = await loadSifState(stores.database, 'sif-sg-100d');
    expect(before?.textCount).toBe(25);
    expect([needsRefit(25, 49), needsRefit(25, 124), needsRefit(25, 125), needsRefit(1000, 1999)]).toEqual([false, false, true, false]);
    const more = Array.from({ length: 100 }, (_, index) => chunk(`more-${index}.md`, 'Notes', `${FILLER[index % FILLER.length].text} Entry ${index}.`));
    await stores.store.ingest({ name: 'more-notes', kind: 'docs' }, more, 'more-1');
    const report = await stores.embedChunks();
    expect(report.embedded).toBe(125);
    const after = await loadSifState(stores.database, 'sif-sg-100d');
    expect(after?.textCount).toBe(125);
    expect(after?.component).not.toEqual(before?.component);
    expect(sif.state).toEqual(after);
    expect((await fingerprint('sif-sg-100d')).rows).toBe(125);
    expect((await stores.embedChunks()).embedded).toBe(0);
  });

  it('a second embedder stores its own vectors without touching the first set, and searches its own space', async () => {
    const before = await fingerprint('sif-sg-100d');
    const report = await embedPending(stores.database, hashingEmbedder(true), { batchSize: 50 });
    expect(report).toMatchObject({ embedderId: 'hash-64d', embedded: before.rows, batches: Math.ceil(before.rows / 50) });
    expect(await fingerprint('sif-sg-100d')).toEqual(before);
    expect((await fingerprint('hash-64d')).rows).toBe(before.rows);
    const [dims] = await stores.database.query<{ dims: number }>(sql`select distinct dims from chunk_embeddings where embedder_id = 'hash-64d'`);
    expect(dims.dims).toBe(64);
    const [index] = await stores.database.query<{ present: boolean }>(sql`select to_regclass(${hnswIndexName('hash-64d')}) is not null as present`);
    expect(index.present).toBe(true);
    const hashed = new DenseRetriever(stores.database, new CorpusStats(stores.database), hashingEmbedder(true), { available: true, recallPrior: {}, embedLatencyMs: 1 });
    const hits = await hashed.search({ text: 'TLS certificates expire after ninety days', k: 1, sources: ALL });
    expect(hits[0]?.title).toBe('Certificates');
  });

  it('sends no chunk of a sensitive source to an embedder that is not local', async () => {
    await stores.store.ingest({ name: 'secrets', kind: 'docs', sensitive: true }, [chunk('s.md', 'Keys', 'Rotate the signing keys every quarter.')], 'secrets-1');
    const remote = { ...hashingEmbedder(false), id: 'remote-64d' };
    const report = await embedPending(stores.database, remote);
    expect(report.includedSensitive).toBe(false);
    const [row] = await stores.database.query<{ count: number }>(sql`
      select count(*)::int as count from chunk_embeddings join chunks on chunks.id = chunk_embeddings.chunk_id
      where embedder_id = 'remote-64d' and chunks.source_id in (select id from sources where sensitive)`);
    expect(row.count).toBe(0);
    expect((await stores.embedChunks()).embedded).toBe(1);
  });

  it('reports priors below bm25 on identifiers and incidents, scaled by embedded coverage', async () => {
    const dense = stores.dense.capabilities();
    const bm25 = stores.retrievers[0].capabilities();
    expect(dense.recallPrior.exact_id!).toBeLessThan(bm25.recallPrior.exact_id!);
    expect(dense.recallPrior.incident!).toBeLessThan(bm25.recallPrior.incident!);
    expect(dense.recallPrior.conceptual).toBeCloseTo(SIF_RECALL_PRIOR.conceptual!, 6);
    expect(dense.latencyMs).toBeGreaterThan(0);
  });

  it('uses the partial HNSW index and still returns the k nearest rows of a filtered source the graph walk misses', async () => {
    const [index] = await stores.database.query<{ indexdef: string }>(sql`select indexdef from pg_indexes where indexname = 'chunk_embeddings_sif_sg_100d_hnsw_idx'`);
    expect(index.indexdef).toMatch(/USING hnsw \(\(\(embedding\)::vector\(100\)\) vector_cosine_ops\) WHERE \(embedder_id = 'sif-sg-100d'::text\)/);
    // 3,000 chunks of another source, all nearer the query than anything in `runbooks`, embedded
    // only in the hashed space (fast). A plain HNSW scan stops after ef_search (40) candidates, all
    // from `noise`; with sorts and sequential scans off the planner must take that ordered path,
    // as it does by itself on large corpora. The noise is ~130 distinct vectors: about one index
    // build in five leaves every runbook unreachable from the entry point (measured over 85 builds).
    const query = 'renew expiring tls certificates';
    const noise = Array.from({ length: 3000 }, (_, index) => chunk(`n${index}.md`, 'Certificates', `${query} now ${index}`));
    await stores.store.ingest({ name: 'noise', kind: 'docs' }, noise, 'noise-1');
    await embedPending(stores.database, hashingEmbedder(true));
    // The SIF vectors now cover a tenth of the corpus, and the priors say so.
    const covered = (await fingerprint('sif-sg-100d')).rows / (await stores.store.listSources()).reduce((sum, source) => sum + source.chunkCount, 0);
    expect(stores.dense.capabilities().recallPrior.conceptual).toBeCloseTo(SIF_RECALL_PRIOR.conceptual! * covered, 6);
    const hashed = new DenseRetriever(stores.database, new CorpusStats(stores.database), hashingEmbedder(true), { available: true, recallPrior: {}, embedLatencyMs: 1 });
    // The exact answer, ranked without the index (no cast, so it cannot match the index expression).
    const [vector] = await hashingEmbedder(true).embed([query]);
    const exact = await stores.database.query<{ title: string; score: number }>(sql`
      select chunks.title, 1 - (chunk_embeddings.embedding <=> ${`[${Array.from(vector).join(',')}]`}::vector)::float8 as score
      from chunk_embeddings join chunks on chunks.id = chunk_embeddings.chunk_id join sources on sources.id = chunks.source_id
      where chunk_embeddings.embedder_id = 'hash-64d' and chunks.is_current and sources.name = 'runbooks'
      order by score desc, chunks.id limit 2`);
    expect(exact.map((row) => row.title)).toEqual(['Certificates', expect.any(String)]);
    await stores.database.exec('set enable_seqscan = off; set enable_sort = off');
    try {
      const explained = await stores.database.query<Record<string, string>>(sql.raw(
        `explain select chunk_id from chunk_embeddings where embedder_id = 'hash-64d' order by embedding::vector(64) <=> '[${new Array(64).fill(0.1).join(',')}]'::vector(64) limit 5`,
      ));
      expect(explained.map((row) => Object.values(row)[0]).join('\n')).toContain(hnswIndexName('hash-64d'));
      const hits = await hashed.search({ text: query, k: 2, sources: ['runbooks'] });
      expect(hits.map((hit) => [hit.title, hit.score])).toEqual(exact.map((row) => [row.title, expect.closeTo(row.score, 5)]));
      expect(hits.every((hit) => hit.sourceName === 'runbooks')).toBe(true);
      // A walk cut short after one batch (all noise) must not cost the filtered query its hits.
      await stores.database.exec('set hnsw.max_scan_tuples = 1');
      const starved = await hashed.search({ text: query, k: 2, sources: ['runbooks'] });
      expect(starved.map((hit) => hit.chunkId)).toEqual(hits.map((hit) => hit.chunkId));
    } finally {
      await stores.database.exec('reset enable_seqscan; reset enable_sort; reset hnsw.max_scan_tuples');
    }
  });

  it('is unavailable with the store\'s reason when the vector extension is missing', async () => {
    const reason = 'extension vector is not installed on this server';
    const setup = await setupDenseRetrieval(
      stores.database,
      { backend: 'postgres-server', extensions: { vector: false, pg_textsearch: true }, missing: { vector: reason } },
      new CorpusStats(stores.database),
      { embedder: sif },
    );
    expect(setup.retriever.capabilities()).toMatchObject({ method: 'dense', available: false, unavailableReason: reason, requires: ['vector'] });
    expect(await setup.retriever.search({ text: 'disk full', k: 5, sources: ALL })).toEqual([]);
    expect(await setup.embedChunks()).toMatchObject({ embedded: 0 });
  });
});
