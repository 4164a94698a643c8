import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { needsVacuum, reclaimDeadRows } from './dead-row-reclaim';
import { openStores, type Stores } from './open-stores';

const root = mkdtempSync(path.join(tmpdir(), 'cr-dead-rows-'));
let stores: Stores;

const TOPICS = ['connection pool', 'memory limit', 'disk pressure', 'certificate expiry', 'dns timeout'];
const chunksOf = (count: number, prefix: string) =>
  Array.from({ length: count }, (_, index) => ({
    uri: `${prefix}-${index}.md`,
    ordinal: 0,
    title: `${prefix} ${index}`,
    text: `Incident ${index}: the ${TOPICS[index % TOPICS.length]} alarm fired on node ${index % 7}.`,
    tokens: 16,
  }));

const deadRowsNow = async () => {
  await stores.database.query(sql`select pg_stat_force_next_flush()`);
  const [row] = await stores.database.query<{ dead: number }>(sql`select n_dead_tup as dead from pg_stat_user_tables where relname = 'chunks'`);
  return Number(row.dead);
};

/** Scores, not titles: the synthetic chunks tie, and which of equal rows fills the last slot may change. */
const bm25Scores = async (text: string) =>
  (await stores.retrievers.find((retriever) => retriever.method === 'bm25')!.search({ text, k: 10, sources: ['incidents', 'later'] })).map((hit) => hit.score.toFixed(6));

beforeAll(async () => {
  stores = await openStores({ dataDir: path.join(root, 'pglite') });
});

afterAll(async () => {
  await stores?.close();
  rmSync(root, { recursive: true, force: true });
});

describe('autovacuum trigger rule', () => {
  it('is PostgreSQL default: more than 50 + 20 % of the live rows', () => {
    expect(needsVacuum(1000, 250)).toBe(false);
    expect(needsVacuum(1000, 251)).toBe(true);
    expect(needsVacuum(0, 50)).toBe(false);
    expect(needsVacuum(0, 51)).toBe(true);
  });
});

describe('dead rows after the search-vector backfill on embedded PGlite', () => {
  it('a backfill over every row vacuums, leaving no dead row and the same bm25 scores', async () => {
    await stores.store.ingest({ name: 'incidents', kind: 'docs' }, chunksOf(400, 'incident'), 'hash-a');
    const before = await bm25Scores('memory limit alarm node 3');
    const report = await stores.fillSearchVectors();
    expect(report.chunks).toBe(400);
    expect(report.deadRows).toMatchObject({ table: 'chunks', vacuumed: true });
    expect(report.deadRows!.deadRows).toBeGreaterThanOrEqual(400);
    expect(await deadRowsNow()).toBe(0);
    expect(await bm25Scores('memory limit alarm node 3')).toEqual(before);
  });

  it('a small ingest leaves its few dead rows for later, as autovacuum would', async () => {
    await stores.store.ingest({ name: 'later', kind: 'docs' }, chunksOf(3, 'later'), 'hash-b');
    const report = await stores.fillSearchVectors();
    expect(report.chunks).toBe(3);
    expect(report.deadRows).toMatchObject({ vacuumed: false, deadRows: 3 });
    expect(await deadRowsNow()).toBe(3);
  });

  it('counts dead rows a new version leaves (is_current flipped) with the backfill ones', async () => {
    await stores.store.ingest({ name: 'incidents', kind: 'docs' }, chunksOf(400, 'incident-v2'), 'hash-c');
    const report = await stores.fillSearchVectors();
    // 400 chunks pass commit_batch_chunks (200), so they load staged and are switched on in batches:
    // 400 staged rows switched on + 400 old rows flipped off + 400 backfilled + 3 left from the small ingest.
    expect(report.deadRows).toMatchObject({ vacuumed: true, deadRows: 1203 });
    expect(await deadRowsNow()).toBe(0);
  });

  it('does nothing on a PostgreSQL server, where autovacuum runs', async () => {
    expect(await reclaimDeadRows({ ...stores.database, driver: 'postgres' }, 'chunks')).toBeUndefined();
  });
});

describe('dead rows while requests are served', () => {
  it('leaves the VACUUM of a table past maxLiveRows for the start, which runs it', async () => {
    await stores.store.ingest({ name: 'incidents', kind: 'docs' }, chunksOf(400, 'incident-v3'), 'hash-d');
    const deferred = await reclaimDeadRows(stores.database, 'chunks', { maxLiveRows: 100 });
    expect(deferred).toMatchObject({ vacuumed: false, deferred: expect.stringMatching(/live rows: VACUUM would hold the embedded database/) });
    expect(await deadRowsNow()).toBeGreaterThan(0);
    await stores.indexDerived({ startUp: true });
    expect(await deadRowsNow()).toBe(0);
  });
});
