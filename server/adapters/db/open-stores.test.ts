import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { SifEmbedder } from '../embeddings/sif-embedder';
import { loadFixtureVectors } from '../embeddings/testing/fixture-vectors';
import { openStores, type Stores } from './open-stores';

const root = mkdtempSync(path.join(tmpdir(), 'cr-open-stores-'));
// Nested below a folder that does not exist yet: PGlite alone would fail to create it.
const dataDir = path.join(root, 'nested', 'deeper', 'pglite');
let stores: Stores | undefined;

afterAll(async () => {
  await stores?.close();
  rmSync(root, { recursive: true, force: true });
});

describe('openStores on embedded PGlite', () => {
  it('creates the data directory, applies every migration, then applies none on reopen', async () => {
    const first = await openStores({ dataDir });
    // Every migration in the journal, in order: the first open of an empty directory applies them all.
    const journal = JSON.parse(readFileSync(path.join(process.cwd(), 'drizzle', 'meta', '_journal.json'), 'utf8')) as { entries: { tag: string }[] };
    expect(journal.entries.length).toBeGreaterThanOrEqual(8);
    expect(first.migrations.applied).toEqual(journal.entries.map((entry) => entry.tag));
    await first.close();
    stores = await openStores({ dataDir });
    expect(stores.migrations.applied).toEqual([]);
    expect(stores.migrations.total).toBe(first.migrations.total);
    expect(stores.database.driver).toBe('pglite');
  });

  it('reports both extensions installed and nothing missing', () => {
    expect(stores!.capabilities).toEqual({ backend: 'embedded-pglite', extensions: { vector: true, pg_textsearch: true }, missing: {} });
    expect(stores!.store.capabilities()).toBe(stores!.capabilities);
  });

  it('creates the bm25 and GIN indexes as partial indexes over current chunks', async () => {
    const rows = await stores!.database.query<{ indexname: string; indexdef: string }>(
      sql`select indexname, indexdef from pg_indexes where tablename = 'chunks' and indexname in ('chunks_bm25_idx', 'chunks_search_vector_idx') order by indexname`,
    );
    expect(rows.map((row) => row.indexname)).toEqual(['chunks_bm25_idx', 'chunks_search_vector_idx']);
    expect(rows[0].indexdef).toMatch(/USING bm25 \(search_text\) WITH \(text_config='?english'?\) WHERE is_current/);
    expect(rows[1].indexdef).toMatch(/USING gin \(search_vector\) WHERE is_current/);
  });

  it('wires bm25 (available) and fulltext retrievers', () => {
    expect(stores!.retrievers.map((retriever) => [retriever.method, retriever.capabilities().available])).toEqual([
      ['bm25', true],
      ['fulltext', true],
    ]);
  });

  it('loads the embedder\'s word vectors in warmCaches (start-up), not at the first ingest or dense query', async () => {
    await stores!.close();
    let loads = 0;
    const embedder = new SifEmbedder(async () => {
      loads += 1;
      return loadFixtureVectors();
    });
    stores = await openStores({ dataDir, dense: { embedder } });
    expect(loads).toBe(0);
    await stores.warmCaches();
    expect(loads).toBe(1);
  });

  it('rejects an options object with neither data_dir nor url', async () => {
    await expect(openStores({})).rejects.toMatchObject({ code: 'INVALID_CONFIG' });
  });
});
