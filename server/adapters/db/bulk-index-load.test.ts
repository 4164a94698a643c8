import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isBulkLoad } from './bulk-index-load';
import { openStores, type Stores } from './open-stores';

const root = mkdtempSync(path.join(tmpdir(), 'cr-bulk-load-'));
let stores: Stores;

const chunks = (count: number, word: string) =>
  Array.from({ length: count }, (_, index) => ({ uri: `${word}-${index}.md`, ordinal: 0, title: `${word} ${index}`, text: `${word} note number ${index} about the ${index % 7 === 0 ? 'checkout' : 'billing'} service`, tokens: 9 }));

const bm25Definition = async () => {
  const rows = await stores.database.query<{ indexdef: string }>(sql`select indexdef from pg_indexes where indexname = 'chunks_bm25_idx'`);
  return rows[0]?.indexdef;
};

beforeAll(async () => {
  stores = await openStores({ dataDir: path.join(root, 'pglite') });
});

afterAll(async () => {
  await stores?.close();
  rmSync(root, { recursive: true, force: true });
});

describe('bulk loads rebuild the bm25 index once', () => {
  it('only loads that are large and at least double the corpus take the rebuild path', () => {
    expect(isBulkLoad(5000, 0)).toBe(true);
    expect(isBulkLoad(5000, 5000)).toBe(true);
    expect(isBulkLoad(5000, 20000)).toBe(false);
    expect(isBulkLoad(200, 0)).toBe(false);
  });

  it('a bulk load leaves the same index, and every row is found through it', async () => {
    const before = await bm25Definition();
    expect(before).toMatch(/USING bm25/);
    await stores.store.ingest({ name: 'notes', kind: 'docs' }, chunks(1200, 'alpha'), 'bulk-1');
    expect(await bm25Definition()).toBe(before);
    const bm25 = stores.retrievers.find((retriever) => retriever.method === 'bm25')!;
    const hits = await bm25.search({ text: 'checkout', k: 500, sources: ['notes'] });
    expect(hits.length).toBe(Math.ceil(1200 / 7));
    // A small follow-up load keeps the index and is searchable at once.
    await stores.store.ingest({ name: 'more', kind: 'docs' }, chunks(5, 'omega'), 'small-1');
    expect((await bm25.search({ text: 'omega', k: 10, sources: ['more'] })).length).toBe(5);
  });

  it('a bulk load that fails rolls back with the index intact', async () => {
    const before = await bm25Definition();
    const broken = [...chunks(1500, 'beta'), { uri: 'bad.md', ordinal: 0, title: 'bad', text: 'x', tokens: -1 }];
    await expect(stores.store.ingest({ name: 'broken', kind: 'docs' }, broken, 'bulk-bad')).rejects.toThrow();
    expect(await bm25Definition()).toBe(before);
    const [row] = await stores.database.query<{ count: number }>(sql`select count(*)::int as count from chunks where source_id in (select id from sources where name = 'broken')`);
    expect(Number(row?.count ?? 0)).toBe(0);
  });
});
