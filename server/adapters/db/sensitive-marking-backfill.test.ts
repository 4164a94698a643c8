import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStores, type Stores } from './open-stores';
import { backfillSensitiveMarking } from './sensitive-marking-backfill';

const root = mkdtempSync(path.join(tmpdir(), 'cr-sensitive-marking-'));
let stores: Stores;

const chunk = (uri: string, text: string) => ({ uri, ordinal: 0, title: uri, text, tokens: 12 });
const CHUNKS = [
  chunk('pager.md', 'Page ops.lead@example.com when the pool is exhausted.'),
  chunk('keys.md', 'The deploy reads AKIAIOSFODNN7EXAMPLE from the vault.'),
  chunk('pool.md', 'The connection pool was exhausted during the deploy (commit 3f1886a, request 550e8400-e29b-41d4-a716-446655440000).'),
];

const marks = () =>
  stores.database.query<{ uri: string; sensitive: boolean | null; kinds: string[] | null }>(sql`select uri, sensitive, sensitive_kinds as kinds from chunks where is_current order by uri`);

beforeAll(async () => {
  stores = await openStores({ dataDir: path.join(root, 'pglite'), syncKnowledgeOnIngest: false });
  await stores.store.ingest({ name: 'notes', kind: 'docs' }, CHUNKS, 'hash-1');
});

afterAll(async () => {
  await stores?.close();
  rmSync(root, { recursive: true, force: true });
});

describe('the sensitive marking of chunks', () => {
  const expected = [
    { uri: 'keys.md', sensitive: true, kinds: ['api_key'] },
    { uri: 'pager.md', sensitive: true, kinds: ['email'] },
    { uri: 'pool.md', sensitive: false, kinds: [] },
  ];

  it('is written by ingest, and a source lists how many of its passages are marked and of which kinds', async () => {
    expect(await marks()).toEqual(expected);
    const [notes] = await stores.store.listSources();
    expect(notes).toMatchObject({ name: 'notes', sensitiveChunks: 2, sensitiveKinds: ['api_key', 'email'] });
  });

  it('is filled for rows written before it existed, once, and an unscanned row reads as sensitive meanwhile', async () => {
    await stores.database.query(sql`update chunks set sensitive = null, sensitive_kinds = null`);
    // fulltext reads each row afresh (bm25 serves rows from an in-process cache filled after the start-up scan).
    const fulltext = stores.retrievers.find((retriever) => retriever.method === 'fulltext')!;
    const sensitivity = async () => (await fulltext.search({ text: 'pool exhausted', k: 5, sources: ['notes'] })).map((hit) => [hit.title, hit.sensitive]);
    expect(await sensitivity()).toContainEqual(['pool.md', true]);
    const report = await backfillSensitiveMarking(stores.database, 2);
    expect(report).toMatchObject({ chunks: 3, sensitive: 2 });
    expect(await marks()).toEqual(expected);
    expect((await backfillSensitiveMarking(stores.database)).chunks).toBe(0);
    expect(await sensitivity()).toEqual(expect.arrayContaining([['pool.md', false], ['pager.md', true]]));
  });
});
