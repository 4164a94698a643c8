import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStores, type Stores } from '../db/open-stores';
import { ChunkRowCache } from './chunk-row-cache';

const root = mkdtempSync(path.join(tmpdir(), 'cr-chunk-cache-'));
let stores: Stores;
let ids: string[];

beforeAll(async () => {
  stores = await openStores({ dataDir: path.join(root, 'pglite') });
  const chunks = ['alpha', 'beta', 'gamma'].map((word, index) => ({ uri: `${word}.md`, ordinal: 0, title: word, text: `${word} `.repeat(10 + index), tokens: 10 + index }));
  await stores.store.ingest({ name: 'words', kind: 'docs' }, chunks, 'v1');
  ids = (await stores.database.query<{ id: string }>(sql`select id from chunks order by title`)).map((row) => row.id);
});

afterAll(async () => {
  await stores?.close();
  rmSync(root, { recursive: true, force: true });
});

describe('ChunkRowCache', () => {
  it('reads each id once, then answers from memory, and skips ids that do not exist', async () => {
    const cache = new ChunkRowCache(stores.database);
    const first = await cache.chunks([ids[0], 'no-such-chunk']);
    expect([...first.keys()]).toEqual([ids[0]]);
    expect(first.get(ids[0])).toMatchObject({ sourceName: 'words', sourceKind: 'docs', title: 'alpha', body: 'alpha '.repeat(10), locator: null, tokens: 10 });
    const [row] = await stores.database.query<{ source_id: string; version_id: string }>(sql`select source_id, version_id from chunks where id = ${ids[0]}`);
    expect(first.get(ids[0])).toMatchObject({ sourceId: row.source_id, versionId: row.version_id });
    const second = await cache.chunks([ids[0], ids[1]]);
    expect(second.get(ids[0])?.title).toBe('alpha');
    expect(second.get(ids[1])?.title).toBe('beta');
    expect(cache.size).toBe(2);
  });

  it('evicts the least recently used entries beyond its character bound', async () => {
    const cache = new ChunkRowCache(stores.database, 150);
    await cache.chunks([ids[1]]); // beta: 4 + 55 characters
    await cache.chunks([ids[2]]); // gamma: 5 + 72 characters → 136 in all
    await cache.chunks([ids[1]]); // beta becomes the most recent
    await cache.chunks([ids[0]]); // alpha: 5 + 60 → over the bound, gamma (least recent) goes
    expect(cache.size).toBe(2);
    expect((await cache.chunks([ids[1]])).size).toBe(1);
    const small = new ChunkRowCache(stores.database, 100);
    await small.chunks([ids[1], ids[2]]);
    expect(small.size).toBe(1);
  });

  it('warms with every current chunk, page by page, then answers without a query; stops at its bound', async () => {
    let queries = 0;
    const counted = { ...stores.database, query: (statement: Parameters<typeof stores.database.query>[0]) => ((queries += 1), stores.database.query(statement)) } as typeof stores.database;
    const cache = new ChunkRowCache(counted);
    expect(await cache.warm(2)).toBe(3); // pages of 2 rows: 2 + 1
    expect(queries).toBe(2);
    expect((await cache.chunks(ids)).size).toBe(3);
    expect(queries).toBe(2);
    const bounded = new ChunkRowCache(stores.database, 100);
    await bounded.warm(1);
    expect(bounded.size).toBeLessThan(3);
  });
});
