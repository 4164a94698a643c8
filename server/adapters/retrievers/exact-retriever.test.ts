import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IngestChunk } from '../../runtime/contracts/store';
import { CorpusStats } from '../db/corpus-stats';
import { openStores, type Stores } from '../db/open-stores';
import { buildPendingDerivedIndexes, indexIdentifiers } from '../graph/graph-builder';
import { ExactRetriever } from './exact-retriever';

const root = mkdtempSync(path.join(tmpdir(), 'cr-exact-'));
let stores: Stores;
let exact: ExactRetriever;

const SHA = '3f9c2a71b0d84e6c5a1f2e9d8c7b6a5f4e3d2c1b';
const line = (ordinal: number, text: string): IngestChunk => ({ uri: 'app.log', ordinal, title: 'checkout-api log', text, tokens: text.split(/\s+/).length, locator: `line ${ordinal + 1}` });

const LOGS = [
  line(0, '2024-05-01T10:02:11Z ERROR pod=checkout-api-7d9f8b6c5-x2k4p request_id=req-42ab91 error=ERR-4242 upstream payments timeout'),
  line(1, '2024-05-01T10:02:12Z WARN pod=checkout-api-7d9f8b6c5-q8m3z retrying payments call status=503'),
  line(2, '2024-05-01T10:02:15Z INFO pod=inventory-5c8d7f9b4-abcde GET /health 200 2ms'),
  line(3, '2024-05-01T10:03:00Z ERROR pod=checkout-api-7d9f8b6c5-x2k4p E1234 connection reset by 10.0.0.7'),
];
const COMMITS: IngestChunk[] = [
  { uri: `commit ${SHA}`, ordinal: 0, title: 'Raise payments timeout', text: `commit ${SHA}\nAuthor: dev\n\nRaise the payments client timeout to 5s.`, tokens: 12, locator: `commit ${SHA.slice(0, 7)}` },
  { uri: 'commit 0a1b2c3d4e5f', ordinal: 0, title: 'Docs', text: 'commit 0a1b2c3d4e5f60718293a4b5c6d7e8f901234567\nAuthor: dev\n\nFix typo.', tokens: 8 },
];
const ALL = ['app-logs', 'git'];

beforeAll(async () => {
  stores = await openStores({ dataDir: path.join(root, 'pglite') });
  await stores.store.ingest({ name: 'app-logs', kind: 'logs' }, LOGS, 'logs-1');
  await stores.store.ingest({ name: 'git', kind: 'git' }, COMMITS, 'git-1');
  // Version 1 mentions ERR-9999; version 2 replaces it, so ERR-9999 must no longer be found.
  await stores.store.ingest({ name: 'versioned', kind: 'logs' }, [line(0, 'ERROR code=ERR-9999 disk full')], 'v-1');
  const old = await stores.store.listSources().then((sources) => sources.find((source) => source.name === 'versioned')!.versionId);
  await indexIdentifiers(stores.database, old);
  await stores.store.ingest({ name: 'versioned', kind: 'logs' }, [line(0, 'INFO disk cleaned')], 'v-2');
  await buildPendingDerivedIndexes(stores.database);
  const corpus = new CorpusStats(stores.database);
  await corpus.refresh();
  exact = new ExactRetriever(stores.database, corpus);
});

afterAll(async () => {
  await stores?.close();
  rmSync(root, { recursive: true, force: true });
});

describe('exact retriever', () => {
  it('finds the commit by its full SHA and by the abbreviated one', async () => {
    const full = await exact.search({ text: `what changed in ${SHA}?`, k: 5, sources: ALL });
    expect(full.map((hit) => hit.title)).toEqual(['Raise payments timeout']);
    expect(full[0]).toMatchObject({ method: 'exact', sourceName: 'git', sourceKind: 'git', rank: 1, score: 1 });
    const short = await exact.search({ text: 'show commit', identifiers: [SHA.slice(0, 7).toUpperCase()], k: 5, sources: ALL });
    expect(short.map((hit) => hit.title)).toEqual(['Raise payments timeout']);
  });

  it('finds log lines by pod name, the pod with the most matched ids first, newest line on a tie', async () => {
    const byPod = await exact.search({ text: 'logs of checkout-api-7d9f8b6c5-x2k4p', k: 5, sources: ALL });
    // Both x2k4p lines carry the pod and its deployment (2 ids); the q8m3z line only the deployment.
    expect(byPod.map((hit) => hit.locator)).toEqual(['line 4', 'line 1', 'line 2']);
    expect(byPod.map((hit) => hit.score)).toEqual([2, 2, 1]);
    const both = await exact.search({ text: 'pod checkout-api-7d9f8b6c5-x2k4p', identifiers: ['ERR-4242'], k: 2, sources: ALL });
    expect(both[0]).toMatchObject({ locator: 'line 1', score: 3 });
  });

  it('finds request ids, error codes, IPs and statuses written as key=value', async () => {
    expect((await exact.search({ text: 'trace request id req-42ab91', k: 5, sources: ALL })).map((hit) => hit.locator)).toEqual(['line 1']);
    expect((await exact.search({ text: 'where did E1234 come from', k: 5, sources: ALL })).map((hit) => hit.locator)).toEqual(['line 4']);
    expect((await exact.search({ text: 'who talked to 10.0.0.7', k: 5, sources: ALL })).map((hit) => hit.locator)).toEqual(['line 4']);
    expect((await exact.search({ text: 'HTTP 503', k: 5, sources: ALL })).map((hit) => hit.locator)).toEqual(['line 2']);
  });

  it('returns nothing without identifiers, outside the requested sources, or from a superseded version', async () => {
    expect(await exact.search({ text: 'why is checkout slow', k: 5, sources: ALL })).toEqual([]);
    expect(await exact.search({ text: `commit ${SHA}`, k: 5, sources: ['app-logs'] })).toEqual([]);
    expect(await exact.search({ text: 'ERR-9999', k: 5, sources: ['versioned'] })).toEqual([]);
    expect(await exact.search({ text: 'x', identifiers: ["'; drop table chunks; --", '%', '_', '\u0000'], k: 5, sources: ALL })).toEqual([]);
    expect(await exact.search({ text: 'E1234 '.repeat(20_000), k: 5, sources: ALL })).toHaveLength(1);
    expect(exact.capabilities()).toMatchObject({ method: 'exact', available: true });
    expect(exact.capabilities().recallPrior.exact_id).toBeGreaterThan(0.9);
  });
});
