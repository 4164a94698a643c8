import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStores, type Stores } from './open-stores';

const root = mkdtempSync(path.join(tmpdir(), 'cr-search-vector-'));
let stores: Stores;

const chunk = (uri: string, text: string) => ({ uri, ordinal: 0, title: uri, text, tokens: 12 });

beforeAll(async () => {
  stores = await openStores({ dataDir: path.join(root, 'pglite') });
});

afterAll(async () => {
  await stores?.close();
  rmSync(root, { recursive: true, force: true });
});

const emptyVectors = async () => {
  const [row] = await stores.database.query<{ count: number }>(sql`select count(*)::int as count from chunks where search_vector is null`);
  return Number(row.count);
};

describe('search_vector where pg_textsearch is installed', () => {
  it('ingest leaves it to the backfill, which fills every row once, then finds nothing to do', async () => {
    await stores.store.ingest(
      { name: 'notes', kind: 'docs' },
      [chunk('a.md', 'The connection pool was exhausted during the deploy.'), chunk('b.md', 'Memory limits were lowered to cut cluster cost.')],
      'hash-1',
    );
    expect(await emptyVectors()).toBe(2);
    // bm25 answers from its own index: nothing waits for the backfill.
    const before = await stores.retrievers.find((retriever) => retriever.method === 'bm25')!.search({ text: 'connection pool', k: 5, sources: ['notes'] });
    expect(before.map((hit) => hit.title)).toEqual(['a.md']);

    const report = await stores.fillSearchVectors();
    expect(report.chunks).toBe(2);
    expect(await emptyVectors()).toBe(0);
    const [row] = await stores.database.query<{ same: boolean }>(
      sql`select bool_and(search_vector = to_tsvector('english'::regconfig, search_text)) as same from chunks`,
    );
    expect(row.same).toBe(true);
    expect((await stores.fillSearchVectors()).chunks).toBe(0);

  });

  it('fulltext fills pending vectors before it searches, so a fresh ingest is found at once', async () => {
    await stores.store.ingest({ name: 'runbooks', kind: 'docs' }, [chunk('r.md', 'Raise the memory limit back to 512Mi.')], 'hash-r');
    expect(await emptyVectors()).toBe(1);
    const fulltext = await stores.retrievers.find((retriever) => retriever.method === 'fulltext')!.search({ text: 'memory limit', k: 5, sources: ['runbooks'] });
    expect(fulltext.map((hit) => hit.title)).toEqual(['r.md']);
    expect(await emptyVectors()).toBe(0);
  });

  it('fulltext skips the backfill until an ingest may have left vectors empty', async () => {
    const fulltext = stores.retrievers.find((retriever) => retriever.method === 'fulltext')!;
    await fulltext.search({ text: 'memory limit', k: 5, sources: ['runbooks'] });
    // A row emptied behind the store's back: no ingest started, so the search path does not scan for it.
    await stores.database.query(sql`update chunks set search_vector = null where title = 'r.md'`);
    expect(await fulltext.search({ text: 'memory limit', k: 5, sources: ['runbooks'] })).toEqual([]);
    expect(await emptyVectors()).toBe(1);
    // The next ingest marks vectors pending: the first search after it fills every empty row.
    await stores.store.ingest({ name: 'postmortems', kind: 'docs' }, [chunk('p.md', 'The memory limit change caused the outage.')], 'hash-p');
    expect(await emptyVectors()).toBe(2);
    const found = await fulltext.search({ text: 'memory limit', k: 5, sources: ['runbooks', 'postmortems'] });
    expect(found.map((hit) => hit.title).sort()).toEqual(['p.md', 'r.md']);
    expect(await emptyVectors()).toBe(0);
  });

  it('indexDerived runs the backfill after a new version', async () => {
    await stores.store.ingest({ name: 'notes', kind: 'docs' }, [chunk('a.md', 'The pool recovered after a restart.')], 'hash-2');
    expect(await emptyVectors()).toBe(1);
    await stores.indexDerived();
    expect(await emptyVectors()).toBe(0);
  });
});
