import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IngestChunk } from '../../runtime/contracts/store';
import { openStores, type Stores } from './open-stores';

const root = mkdtempSync(path.join(tmpdir(), 'cr-pg-store-'));
let stores: Stores;

const chunk = (uri: string, ordinal: number, text: string, extra: Partial<IngestChunk> = {}): IngestChunk => ({
  uri,
  ordinal,
  title: uri,
  text,
  tokens: text.split(/\s+/).length,
  ...extra,
});

beforeAll(async () => {
  stores = await openStores({ dataDir: path.join(root, 'pglite') });
});

afterAll(async () => {
  await stores?.close();
  rmSync(root, { recursive: true, force: true });
});

const versionsOf = (name: string) =>
  stores.database.query<{ id: string; version_no: number; content_hash: string; superseded: boolean; current_chunks: number; all_chunks: number }>(sql`
    select v.id, v.version_no, v.content_hash, v.superseded_at is not null as superseded,
           (select count(*)::int from chunks c where c.version_id = v.id and c.is_current) as current_chunks,
           (select count(*)::int from chunks c where c.version_id = v.id) as all_chunks
    from source_versions v join sources s on s.id = v.source_id
    where s.name = ${name} order by v.version_no`);

describe('PgStore ingest and versions', () => {
  const firstChunks = [chunk('runbook.md', 0, 'Restart the pod when OOMKilled.', { locator: 'line 1' }), chunk('runbook.md', 1, 'Raise the memory limit.'), chunk('faq.md', 0, 'Nothing here.')];

  it('writes a first version with all its chunks current', async () => {
    const result = await stores.store.ingest({ name: 'runbooks', kind: 'docs' }, firstChunks, 'hash-1');
    expect(result).toMatchObject({ source: 'runbooks', changed: true, documents: 2, chunks: 3 });
    const versions = await versionsOf('runbooks');
    expect(versions).toEqual([{ id: result.versionId, version_no: 1, content_hash: 'hash-1', superseded: false, current_chunks: 3, all_chunks: 3 }]);
    const [source] = await stores.store.listSources();
    expect(source).toMatchObject({ name: 'runbooks', kind: 'docs', versionId: result.versionId, contentHash: 'hash-1', chunkCount: 3, stale: false, sensitive: false });
    expect(source.tokenCount).toBe(firstChunks.reduce((sum, item) => sum + item.tokens, 0));
  });

  it('treats a re-ingest with the same content hash as a no-op', async () => {
    const before = await versionsOf('runbooks');
    const result = await stores.store.ingest({ name: 'runbooks', kind: 'docs' }, firstChunks, 'hash-1');
    expect(result).toMatchObject({ changed: false, versionId: before[0].id, chunks: 3 });
    expect(await versionsOf('runbooks')).toEqual(before);
  });

  it('writes a changed source as a new version, keeps the old one and flips is_current', async () => {
    const [old] = await versionsOf('runbooks');
    const result = await stores.store.ingest({ name: 'runbooks', kind: 'docs', sensitive: true }, [chunk('runbook.md', 0, 'Restart the pod; then page on-call.')], 'hash-2');
    expect(result).toMatchObject({ changed: true, chunks: 1, documents: 1 });
    expect(result.versionId).not.toBe(old.id);
    expect(await versionsOf('runbooks')).toEqual([
      { ...old, superseded: true, current_chunks: 0 },
      { id: result.versionId, version_no: 2, content_hash: 'hash-2', superseded: false, current_chunks: 1, all_chunks: 1 },
    ]);
    const [source] = await stores.store.listSources();
    expect(source).toMatchObject({ versionId: result.versionId, contentHash: 'hash-2', chunkCount: 1, sensitive: true });
  });

  // Issue 12, finding 2: a changed re-ingest that did not repeat the flag cleared it.
  it('keeps a sensitive source sensitive when a changed re-ingest does not say so', async () => {
    await stores.store.ingest({ name: 'payroll-notes', kind: 'docs', sensitive: true }, [chunk('pay.md', 0, 'Salaries are paid monthly.')], 'pay-1');
    const result = await stores.store.ingest({ name: 'payroll-notes', kind: 'docs' }, [chunk('pay.md', 0, 'Salaries are paid twice a month.')], 'pay-2');
    expect(result.changed).toBe(true);
    const source = (await stores.store.listSources()).find((entry) => entry.name === 'payroll-notes');
    expect(source).toMatchObject({ contentHash: 'pay-2', sensitive: true });
  });

  it('gives the same chunk ids for the same version, uri and ordinal (deterministic)', async () => {
    const rows = await stores.database.query<{ id: string; search_text: string; locator: string | null }>(
      sql`select id, search_text, locator from chunks where is_current and uri = 'runbook.md'`,
    );
    expect(rows).toHaveLength(1);
    expect(rows[0].id).toMatch(/^chk_[0-9a-f]{32}$/);
    expect(rows[0].search_text).toBe('runbook.md\nRestart the pod; then page on-call.');
  });

  it('rolls back a failed ingest completely (version row, is_current flip, earlier batches)', async () => {
    const before = await versionsOf('runbooks');
    // 600 rows = two INSERT batches; the BigInt makes the second batch fail after the first was written.
    const failing = Array.from({ length: 600 }, (_, index) => chunk('big.md', index, `text ${index}`, index === 550 ? { metadata: { size: BigInt(1) } } : {}));
    await expect(stores.store.ingest({ name: 'runbooks', kind: 'docs' }, failing, 'hash-broken')).rejects.toThrow(/BigInt/);
    expect(await versionsOf('runbooks')).toEqual(before);
    const [row] = await stores.database.query<{ count: number }>(sql`select count(*)::int as count from chunks where uri = 'big.md'`);
    expect(row.count).toBe(0);
    await expect(stores.store.ingest({ name: 'broken', kind: 'docs' }, [chunk('a.md', 0, 'one'), chunk('a.md', 0, 'two')], 'h')).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      field: 'chunks',
    });
  });

  it('stores text PostgreSQL would refuse (NUL, lone surrogates) instead of failing the ingest', async () => {
    const result = await stores.store.ingest({ name: 'binaryish', kind: 'logs' }, [chunk('x.log', 0, 'a\u0000b \ud800 c', { metadata: { note: 'n\u0000ul' } })], 'h1');
    expect(result.changed).toBe(true);
    const [row] = await stores.database.query<{ body: string; metadata: { note: string } }>(sql`select body, metadata from chunks where version_id = ${result.versionId}`);
    expect(row).toEqual({ body: 'ab \ufffd c', metadata: { note: 'nul' } });
  });

  it('validates kind, name and numbers with the field named', async () => {
    await expect(stores.store.ingest({ name: ' ', kind: 'docs' }, [], 'h')).rejects.toMatchObject({ field: 'source.name' });
    await expect(stores.store.ingest({ name: 'x', kind: 'videos' as never }, [], 'h')).rejects.toMatchObject({ field: 'source.kind' });
    await expect(stores.store.ingest({ name: 'x', kind: 'docs' }, [chunk('a', 0, 'b', { tokens: -1 })], 'h')).rejects.toMatchObject({ field: 'chunks.tokens' });
  });

  it('marks a source stale with a reason and a new version clears it', async () => {
    await stores.store.markStale('runbooks', 'upstream repository moved');
    expect((await stores.store.listSources()).find((source) => source.name === 'runbooks')).toMatchObject({ stale: true, staleReason: 'upstream repository moved' });
    await stores.store.ingest({ name: 'runbooks', kind: 'docs' }, [chunk('runbook.md', 0, 'fresh')], 'hash-3');
    const refreshed = (await stores.store.listSources()).find((source) => source.name === 'runbooks');
    expect(refreshed?.stale).toBe(false);
    expect(refreshed?.staleReason).toBeUndefined();
    await expect(stores.store.markStale('nope', 'x')).rejects.toMatchObject({ code: 'UNKNOWN_SOURCE' });
  });

  it('ingests a few thousand chunks in one version across several INSERT batches', async () => {
    const many = Array.from({ length: 2100 }, (_, index) => chunk(`doc-${Math.floor(index / 7)}.md`, index % 7, `chunk number ${index} about checkout latency`));
    const result = await stores.store.ingest({ name: 'bulk', kind: 'docs' }, many, 'bulk-1');
    expect(result).toMatchObject({ changed: true, chunks: 2100, documents: 300 });
    const [row] = await stores.database.query<{ count: number }>(sql`select count(*)::int as count from chunks where version_id = ${result.versionId} and is_current`);
    expect(row.count).toBe(2100);
  });
});
