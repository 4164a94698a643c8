import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IngestChunk } from '../../runtime/contracts/store';
import { openStores, type Stores } from './open-stores';

const root = mkdtempSync(path.join(tmpdir(), 'cr-batched-load-'));
let stores: Stores;

const chunks = (count: number, label: string): IngestChunk[] =>
  Array.from({ length: count }, (_, index) => ({ uri: `doc-${Math.floor(index / 5)}.md`, ordinal: index % 5, title: `doc ${index}`, text: `${label} passage ${index} about checkout latency`, tokens: 6 }));

const currentOf = async (name: string) => {
  const [row] = await stores.database.query<{ count: number; versions: number }>(sql`
    select count(*)::int as count, count(distinct version_id)::int as versions from chunks
    where is_current and source_id = (select id from sources where name = ${name})`);
  return row;
};

beforeAll(async () => {
  // 100 chunks per transaction: a 1,000-chunk source is 10 staging transactions and 10 flips.
  stores = await openStores({ dataDir: path.join(root, 'pglite'), commitBatchChunks: 100 });
});
afterAll(async () => {
  await stores?.close();
  rmSync(root, { recursive: true, force: true });
});

describe('PgStore batched load (ingest.commit_batch_chunks)', () => {
  it('lets other queries through between batches while a large source loads', async () => {
    let finished = false;
    const loading = stores.store.ingest({ name: 'wide', kind: 'docs' }, chunks(1000, 'first'), 'wide-1').finally(() => (finished = true));
    // Each probe is a sign-in's worth of work: one query on the same single PGlite connection.
    const answeredWhileLoading: number[] = [];
    while (!finished) {
      const [row] = await stores.database.query<{ count: number }>(sql`select count(*)::int as count from chunks where is_current and source_id = (select id from sources where name = 'wide')`);
      if (!finished) answeredWhileLoading.push(row.count);
      // Requests arrive as I/O events, not back to back in one microtask chain (which would starve the load).
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const result = await loading;
    expect(result).toMatchObject({ changed: true, chunks: 1000, documents: 200 });
    expect(answeredWhileLoading.length).toBeGreaterThan(3);
    // Staged rows stay invisible until the flip, which turns them on in order: no reader ever saw more than the version.
    expect(Math.max(...answeredWhileLoading)).toBeLessThanOrEqual(1000);
    expect(answeredWhileLoading.filter((count) => count === 0).length).toBeGreaterThan(0);
    expect(await currentOf('wide')).toEqual({ count: 1000, versions: 1 });
  });

  it('replaces the old version: new rows on, old rows off, the source pointing at the new version', async () => {
    const result = await stores.store.ingest({ name: 'wide', kind: 'docs' }, chunks(700, 'second'), 'wide-2');
    expect(await currentOf('wide')).toEqual({ count: 700, versions: 1 });
    const [source] = await stores.database.query<{ current_version_id: string }>(sql`select current_version_id from sources where name = 'wide'`);
    expect(source.current_version_id).toBe(result.versionId);
    const [old] = await stores.database.query<{ superseded: boolean }>(sql`select superseded_at is not null as superseded from source_versions where content_hash = 'wide-1'`);
    expect(old.superseded).toBe(true);
  });

  it('undoes a load that fails in a later batch: the old version stays current, nothing staged is left', async () => {
    const broken = chunks(450, 'third').map((chunk, index) => (index === 420 ? { ...chunk, metadata: { size: BigInt(1) } } : chunk));
    await expect(stores.store.ingest({ name: 'wide', kind: 'docs' }, broken, 'wide-3')).rejects.toThrow(/BigInt/);
    expect(await currentOf('wide')).toEqual({ count: 700, versions: 1 });
    const [left] = await stores.database.query<{ versions: number; chunks: number }>(sql`
      select (select count(*)::int from source_versions where content_hash = 'wide-3') as versions,
             (select count(*)::int from chunks where body like 'third%') as chunks`);
    expect(left).toEqual({ versions: 0, chunks: 0 });
  });

  // Issue 13, point 1: a cancelled or timed-out ingest stops between batches and leaves nothing half-written.
  it('stops a load whose signal fires once rows are staged, and undoes it like a failure', async () => {
    const controller = new AbortController();
    const loading = stores.store.ingest({ name: 'wide', kind: 'docs' }, chunks(1000, 'fourth'), 'wide-4', { signal: controller.signal });
    let settled = false;
    void loading.catch(() => undefined).finally(() => (settled = true));
    let stagedAtAbort = 0;
    while (!settled && !controller.signal.aborted) {
      const [row] = await stores.database.query<{ count: number }>(sql`select count(*)::int as count from chunks where body like 'fourth%'`);
      if (row.count > 0) {
        stagedAtAbort = row.count;
        controller.abort(new Error('ingest cancelled by the test'));
      }
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    await expect(loading).rejects.toThrow('ingest cancelled by the test');
    expect(stagedAtAbort).toBeGreaterThan(0);
    expect(await currentOf('wide')).toEqual({ count: 700, versions: 1 });
    const [left] = await stores.database.query<{ versions: number; chunks: number }>(sql`
      select (select count(*)::int from source_versions where content_hash = 'wide-4') as versions,
             (select count(*)::int from chunks where body like 'fourth%') as chunks`);
    expect(left).toEqual({ versions: 0, chunks: 0 });
  });

  it('writes nothing for a signal already fired, in one transaction or in batches', async () => {
    const signal = AbortSignal.abort(new Error('stopped before the write'));
    await expect(stores.store.ingest({ name: 'narrow', kind: 'docs' }, chunks(10, 'fifth'), 'narrow-1', { signal })).rejects.toThrow('stopped before the write');
    const [left] = await stores.database.query<{ sources: number; chunks: number }>(sql`
      select (select count(*)::int from sources where name = 'narrow') as sources, (select count(*)::int from chunks where body like 'fifth%') as chunks`);
    expect(left).toEqual({ sources: 0, chunks: 0 });
  });
});
