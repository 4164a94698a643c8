import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../../db/client';
import { migrateDatabase } from '../../db/migrate';
import { PgStore } from '../adapters/db/pg-store';
import { BM25_INDEX_NAME, detectStoreCapabilities } from '../adapters/db/store-capabilities';
import { createTokenCounter } from '../adapters/models/token-counter';
import { loadDemoCorpus } from './demo-corpus';

// The demo corpus through the real store (PGlite) with the real tokenizer: what `context-runtime demo` does.
let workDir: string;
let database: Database;
let store: PgStore;
const countTokens = createTokenCounter();

beforeAll(async () => {
  workDir = await mkdtemp(join(tmpdir(), 'demo-corpus-pg-'));
  database = await openDatabase({ dataDir: join(workDir, 'pglite') });
  await migrateDatabase(database);
  store = new PgStore(database, await detectStoreCapabilities(database));
});
afterAll(async () => {
  await database?.close();
  await rm(workDir, { recursive: true, force: true });
});

describe('loadDemoCorpus into PgStore', () => {
  it('stores the five sources with their chunks, and a second load writes nothing', async () => {
    const first = await loadDemoCorpus(store, { countTokens, workDir });
    expect(first.every((result) => result.changed)).toBe(true);
    const sources = await store.listSources();
    expect(sources.map((source) => [source.name, source.kind])).toEqual([
      ['demo-docs', 'docs'],
      ['demo-events', 'events'],
      ['demo-git', 'git'],
      ['demo-logs', 'logs'],
      ['demo-metrics', 'metrics'],
    ]);
    for (const source of sources) expect(source.chunkCount).toBeGreaterThan(0);

    const [commit] = await database.query<{ title: string; body: string }>(sql`select title, body from chunks where is_current and locator = 'commit 48d4188'`);
    expect(commit.title).toBe('commit 48d4188: Lower checkout-api memory limit to 256Mi to cut cluster cost');
    expect(commit.body).toContain('+              memory: 256Mi');
    const oomRows = await database.query<{ locator: string }>(sql`select locator from chunks where is_current and body like 'Warning OOMKilled pod/checkout-api-7d9f8b6c5-x2k4p%'`);
    expect(oomRows).toHaveLength(1);

    const again = await loadDemoCorpus(store, { countTokens, workDir });
    expect(again.map((result) => result.changed)).toEqual([false, false, false, false, false]);
    expect((await store.listSources()).map((source) => source.versionId)).toEqual(sources.map((source) => source.versionId));
  });

  it('puts OOMKilled evidence at the top of a BM25 search when pg_textsearch is present', async ({ skip }) => {
    if (!store.capabilities().extensions.pg_textsearch) skip('pg_textsearch not installed');
    const rows = await database.query<{ locator: string; body: string }>(
      sql`select locator, body from chunks where is_current order by search_text <@> to_bm25query('checkout-api OOMKilled memory limit', ${BM25_INDEX_NAME}) asc limit 5`,
    );
    expect(rows.some((row) => row.body.includes('OOMKilled'))).toBe(true);
  });
});
