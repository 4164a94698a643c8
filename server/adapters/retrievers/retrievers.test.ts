import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RetrieverPlugin } from '../../runtime/contracts/retriever';
import type { IngestChunk } from '../../runtime/contracts/store';
import { CorpusStats } from '../db/corpus-stats';
import { sourceIdOf } from '../db/ids';
import { openStores, type Stores } from '../db/open-stores';
import { Bm25Retriever } from './bm25-retriever';

const root = mkdtempSync(path.join(tmpdir(), 'cr-retrievers-'));
let stores: Stores;
let bm25: RetrieverPlugin;
let fulltext: RetrieverPlugin;

const doc = (uri: string, ordinal: number, title: string, text: string, locator?: string): IngestChunk => ({
  uri,
  ordinal,
  title,
  text,
  tokens: text.split(/\s+/).length,
  ...(locator ? { locator } : {}),
});

const RUNBOOKS = [
  doc('oom.md', 0, 'OOMKilled and CrashLoopBackOff', 'When a pod is OOMKilled the container exceeded its memory limit. Raise resources.limits.memory and watch for CrashLoopBackOff.', 'line 1'),
  doc('deploy.md', 0, 'Deploy runbook', 'Roll back a bad deploy with kubectl rollout undo deployment/checkout-api and confirm the new replica set is healthy.', 'line 1'),
  doc('retry.md', 0, 'Payments retry policy', 'Payment calls retry with exponential backoff and full jitter, at most five attempts, and never retry a declined card.', 'line 3'),
  doc('glossary.md', 0, 'Glossary', 'A service level objective is a target for availability measured over a rolling window.'),
];
const LOGS = [
  doc('app.log', 0, 'checkout-api log', '2024-05-01T10:02:11Z ERROR checkout-api-7f9c4 request_id=req-42ab error=ERR-4242 upstream payments timeout after 3000ms', 'line 812'),
  doc('app.log', 1, 'checkout-api log', '2024-05-01T10:02:15Z INFO ingress GET /health 200 2ms', 'line 813'),
];

beforeAll(async () => {
  stores = await openStores({ dataDir: path.join(root, 'pglite') });
  await stores.store.ingest({ name: 'runbooks', kind: 'docs' }, RUNBOOKS, 'runbooks-1');
  await stores.store.ingest({ name: 'app-logs', kind: 'logs' }, LOGS, 'logs-1');
  // A louder source: 1,200 chunks that match "pod crash" far better than anything in `quiet`,
  // more than pg_textsearch's default scan limit of 1,000, to prove the source filter loses nothing.
  const noise = Array.from({ length: 1200 }, (_, index) => doc(`noise-${index}.md`, 0, 'pod crash', `pod crash pod crash restart ${index}`));
  await stores.store.ingest({ name: 'noise', kind: 'docs' }, noise, 'noise-1');
  await stores.store.ingest({ name: 'quiet', kind: 'docs' }, [doc('q.md', 0, 'Postmortem', 'One pod had a crash during the long migration window last spring.')], 'quiet-1');
  // Version 1 talks about zookeeper; version 2 replaces it. Only version 2 may be found.
  await stores.store.ingest({ name: 'versioned', kind: 'docs' }, [doc('v.md', 0, 'Coordination', 'We coordinate leaders through zookeeper.')], 'v-1');
  await stores.store.ingest({ name: 'versioned', kind: 'docs' }, [doc('v.md', 0, 'Coordination', 'We coordinate leaders through etcd leases.')], 'v-2');
  [bm25, fulltext] = stores.retrievers;
});

afterAll(async () => {
  await stores?.close();
  rmSync(root, { recursive: true, force: true });
});

const ALL = ['runbooks', 'app-logs', 'noise', 'quiet', 'versioned'];

describe.each(['bm25', 'fulltext'])('%s retriever', (method) => {
  const retriever = () => (method === 'bm25' ? bm25 : fulltext);

  it('ranks the obviously relevant chunk first', async () => {
    const retry = await retriever().search({ text: 'how do payment retries back off? jitter', k: 5, sources: ALL });
    expect(retry[0]).toMatchObject({ sourceName: 'runbooks', title: 'Payments retry policy', locator: 'line 3', method, rank: 1, sourceKind: 'docs' });
    const oom = await retriever().search({ text: 'container OOMKilled memory limit', k: 5, sources: ALL });
    expect(oom[0].title).toBe('OOMKilled and CrashLoopBackOff');
    const byId = await retriever().search({ text: 'what happened with', identifiers: ['ERR-4242'], k: 5, sources: ALL });
    expect(byId[0]).toMatchObject({ sourceName: 'app-logs', sourceKind: 'logs', locator: 'line 812' });
  });

  it('returns Hit objects with version, tokens, positive descending scores and 1-based ranks', async () => {
    const hits = await retriever().search({ text: 'checkout-api deploy rollback', k: 3, sources: ALL });
    expect(hits.length).toBeGreaterThan(0);
    expect(hits.length).toBeLessThanOrEqual(3);
    const versions = new Map((await stores.store.listSources()).map((source) => [source.name, source.versionId]));
    hits.forEach((hit, index) => {
      expect(hit.rank).toBe(index + 1);
      expect(hit.score).toBeGreaterThan(0);
      if (index > 0) expect(hit.score).toBeLessThanOrEqual(hits[index - 1].score);
      expect(hit.sourceVersionId).toBe(versions.get(hit.sourceName));
      expect(hit.tokens).toBeGreaterThan(0);
      expect(hit.chunkId).toMatch(/^chk_/);
    });
  });

  it('searches only the requested sources, even when another source matches far better', async () => {
    const hits = await retriever().search({ text: 'pod crash', k: 5, sources: ['quiet'] });
    expect(hits.map((hit) => hit.title)).toEqual(['Postmortem']);
    const logsOnly = await retriever().search({ text: 'checkout-api timeout', k: 10, sources: ['app-logs'] });
    expect(new Set(logsOnly.map((hit) => hit.sourceName))).toEqual(new Set(['app-logs']));
    expect(await retriever().search({ text: 'pod crash', k: 5, sources: [] })).toEqual([]);
  });

  it('reads only current versions', async () => {
    expect(await retriever().search({ text: 'zookeeper', k: 5, sources: ['versioned'] })).toEqual([]);
    expect((await retriever().search({ text: 'etcd leases', k: 5, sources: ['versioned'] }))[0]?.text).toContain('etcd');
  });

  it('answers junk input with [] or hits, never an error', async () => {
    for (const text of ['', '   ', '?!.,;:\'"()[]{}<>--', '""', '&|!<->', 'the of and']) {
      expect(await retriever().search({ text, k: 5, sources: ALL })).toEqual([]);
    }
    for (const text of ["'); drop table chunks; --", 'a:b "unterminated', '-memory OR !limit', 'pod:*', '\\ memory \u0000 limit']) {
      await expect(retriever().search({ text, k: 5, sources: ALL })).resolves.toBeInstanceOf(Array);
    }
    expect((await retriever().search({ text: '!!!ERR-4242!!!', k: 5, sources: ALL }))[0]?.sourceName).toBe('app-logs');
    expect(await retriever().search({ text: 'memory', k: 0, sources: ALL })).toEqual([]);
  });

  it('honours k', async () => {
    expect(await retriever().search({ text: 'pod crash restart', k: 7, sources: ['noise'] })).toHaveLength(7);
  });
});

describe('retriever capabilities', () => {
  it('reports method, requirements and priors, bm25 above fulltext on exact ids', () => {
    const bm25Capabilities = bm25.capabilities();
    const fulltextCapabilities = fulltext.capabilities();
    expect(bm25Capabilities).toMatchObject({ method: 'bm25', available: true, requires: ['pg_textsearch'] });
    expect(fulltextCapabilities).toMatchObject({ method: 'fulltext', available: true, requires: [] });
    expect(bm25Capabilities.recallPrior.exact_id!).toBeGreaterThan(fulltextCapabilities.recallPrior.exact_id!);
    expect(bm25Capabilities.recallPrior.exact_id!).toBeGreaterThan(bm25Capabilities.recallPrior.conceptual!);
  });

  it('grows the latency estimate with the corpus', async () => {
    const before = fulltext.capabilities().latencyMs;
    await stores.store.ingest({ name: 'more', kind: 'docs' }, Array.from({ length: 500 }, (_, index) => doc(`m${index}`, 0, 'm', `filler ${index}`)), 'more-1');
    expect(fulltext.capabilities().latencyMs).toBeGreaterThan(before);
  });

  it('bm25 searches each source in one call exactly as one search per source would', async () => {
    const sources = ['noise', 'quiet', 'runbooks', 'app-logs', 'versioned'];
    for (const text of ['pod crash', 'checkout-api memory OOMKilled timeout', 'zookeeper']) {
      const each = await bm25.searchEach!({ text, k: 3, sources });
      expect([...each.keys()]).toEqual(sources);
      for (const source of sources) expect(each.get(source), `${text} / ${source}`).toEqual(await bm25.search({ text, k: 3, sources: [source] }));
    }
    expect((await bm25.searchEach!({ text: 'pod crash', k: 3, sources: ['quiet'] })).get('quiet')?.map((hit) => hit.title)).toEqual(['Postmortem']);
    expect([...(await bm25.searchEach!({ text: '  ', k: 3, sources: ['quiet'] }))]).toEqual([['quiet', []]]);
  });

  it('bm25 searches several texts in one call exactly as one search per text would', async () => {
    const sources = ['noise', 'quiet', 'runbooks', 'app-logs'];
    const texts = ['pod crash', '  ', 'checkout-api memory OOMKilled timeout', 'zookeeper'];
    const lists = await bm25.searchMany!(texts, { text: 'ignored', k: 3, sources });
    expect(lists).toHaveLength(texts.length);
    for (const [index, text] of texts.entries()) expect(lists[index], text).toEqual(await bm25.search({ text, k: 3, sources }));
    expect(lists[1]).toEqual([]);
    expect(await bm25.searchMany!(['pod crash'], { text: '', k: 3, sources: [] })).toEqual([[]]);
  });

  it('an unavailable bm25 says why and returns nothing', async () => {
    const corpus = new CorpusStats(stores.database);
    const missing = new Bm25Retriever(stores.database, corpus, { available: false, reason: 'extension pg_textsearch is not installed on this server' });
    expect(missing.capabilities()).toMatchObject({ available: false, unavailableReason: 'extension pg_textsearch is not installed on this server' });
    expect(await missing.search({ text: 'memory', k: 5, sources: ALL })).toEqual([]);
  });
});

describe('bm25 when every known source is asked for', () => {
  it('skips the source filter, yet never returns a source another process added since its corpus refresh', async () => {
    const corpus = new CorpusStats(stores.database);
    await corpus.refresh();
    const bm25 = new Bm25Retriever(stores.database, corpus, { available: true });
    const known = (await stores.store.listSources()).map((source) => source.name);
    expect(corpus.coversEverySource(new Set(known.map(sourceIdOf)))).toBe(true);
    expect(corpus.coversEverySource(new Set(['runbooks'].map(sourceIdOf)))).toBe(false);
    // Written through the stores' own corpus: this retriever's corpus still lists the first five.
    await stores.store.ingest({ name: 'late', kind: 'docs' }, [doc('late.md', 0, 'pod crash', 'pod crash pod crash pod crash pod crash')], 'late-1');
    const hits = await bm25.search({ text: 'pod crash', k: 50, sources: known });
    expect(hits.length).toBeGreaterThan(0);
    expect(hits.some((hit) => hit.sourceName === 'late')).toBe(false);
    const withLate = await bm25.search({ text: 'pod crash', k: 5, sources: [...known, 'late'] });
    expect(withLate[0]?.sourceName).toBe('late');
  });
});

describe('bm25 within time windows', () => {
  const stamped = (ordinal: number, first: string, last: string, text: string): IngestChunk => ({ ...doc('spool.log', ordinal, `spool.log ${ordinal}`, text), metadata: { firstTimestamp: first, lastTimestamp: last } });

  it('searches only the chunks stamped inside a window, in any year when the window has none', async () => {
    await stores.store.ingest({ name: 'spool-logs', kind: 'logs' }, [
      stamped(0, '2025-06-01 08:58:10,001', '2025-06-01 09:02:44,120', 'spooler queue depth 40 jobs waiting'),
      stamped(1, '2025-06-01 13:00:00,000', '2025-06-01 13:05:00,000', 'spooler queue depth 900 jobs waiting spooler queue'),
      stamped(2, '2025-06-02T09:00:00Z', '2025-06-02T09:00:00Z', 'spooler queue depth 12 jobs waiting'),
    ], 'spool-1');
    const search = (within?: readonly { from: string; to: string; anyYear?: boolean }[]) => bm25.search({ text: 'spooler queue depth', k: 10, sources: ['spool-logs', 'runbooks'], ...(within ? { within } : {}) });
    expect((await search()).map((hit) => hit.title)).toEqual(['spool.log 1', 'spool.log 0', 'spool.log 2']);
    // A window overlapping the first chunk's stretch (08:58–09:02), not containing it whole; unstamped runbooks never match.
    expect((await search([{ from: '2025-06-01T08:30', to: '2025-06-01T09:00' }])).map((hit) => hit.title)).toEqual(['spool.log 0']);
    expect((await search([{ from: '06-02T08:30', to: '06-02T09:30', anyYear: true }, { from: '2025-06-01T12:59', to: '2025-06-01T13:01' }])).map((hit) => hit.title)).toEqual(['spool.log 1', 'spool.log 2']);
    expect(await search([{ from: '2024-06-01T08:30', to: '2024-06-01T09:30' }])).toEqual([]);
    expect(bm25.capabilities().timeWindows).toBe(true);
  });
});

describe('bm25 and a phrasal verb the sources write as one word', () => {
  it('finds "Controlled shutdown" when asked when the broker was "shut down"', async () => {
    await stores.store.ingest({ name: 'broker-logs', kind: 'logs' }, [
      doc('broker.log', 0, 'broker.log lines 10–12', 'ISR shrinking for partition orders-1 on broker 2'),
      doc('broker.log', 1, 'broker.log lines 13–13', 'Controlled shutdown of broker 3 observed; its 16 leaders now on 2 and 1'),
    ], 'broker-1');
    // Without "shutdown" as a term the window naming a partition ranks first.
    const hits = await bm25.search({ text: 'When broker 3 was shut down, how many partitions moved?', k: 2, sources: ['broker-logs'] });
    expect(hits[0]?.title).toBe('broker.log lines 13–13');
  });
});
