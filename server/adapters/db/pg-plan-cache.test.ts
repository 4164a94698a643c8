import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { PlanCacheKey } from '../../runtime/contracts/plan-cache';
import { sha256Hex } from './ids';
import { openStores, type Stores } from './open-stores';
import { PgPlanCache } from './pg-plan-cache';

const root = mkdtempSync(path.join(tmpdir(), 'cr-plan-cache-'));
let stores: Stores;

const chunk = (text: string) => ({ uri: 'a.md', ordinal: 0, title: 'a', text, tokens: 3 });

beforeAll(async () => {
  stores = await openStores({ dataDir: path.join(root, 'pglite'), planCacheTtlSeconds: 3600 });
  await stores.store.ingest({ name: 'docs', kind: 'docs' }, [chunk('alpha')], 'docs-1');
  await stores.store.ingest({ name: 'logs', kind: 'logs' }, [chunk('beta')], 'logs-1');
});

afterAll(async () => {
  await stores?.close();
  rmSync(root, { recursive: true, force: true });
});

describe('PgKnowledge.fingerprint', () => {
  it('is sha256 over sorted name:versionId:contentHash, independent of order and duplicates', async () => {
    const sources = new Map((await stores.knowledge.sources()).map((source) => [source.name, source]));
    const expected = sha256Hex(`docs:${sources.get('docs')!.versionId}:docs-1\nlogs:${sources.get('logs')!.versionId}:logs-1`);
    expect(await stores.knowledge.fingerprint(['logs', 'docs'])).toBe(expected);
    expect(await stores.knowledge.fingerprint(['docs', 'logs', 'docs'])).toBe(expected);
  });

  it('changes when a named source gets a new version, not when another does', async () => {
    const docsOnly = await stores.knowledge.fingerprint(['docs']);
    await stores.store.ingest({ name: 'logs', kind: 'logs' }, [chunk('gamma')], 'logs-2');
    expect(await stores.knowledge.fingerprint(['docs'])).toBe(docsOnly);
    await stores.store.ingest({ name: 'docs', kind: 'docs' }, [chunk('delta')], 'docs-2');
    expect(await stores.knowledge.fingerprint(['docs'])).not.toBe(docsOnly);
  });

  it('names unknown sources', async () => {
    await expect(stores.knowledge.fingerprint(['docs', 'nope', 'zilch'])).rejects.toMatchObject({ code: 'UNKNOWN_SOURCE', details: { sources: ['nope', 'zilch'] } });
  });

  it('claims no contradictions yet', async () => {
    expect(await stores.knowledge.contradictions(['chk_x'])).toEqual([]);
  });
});

describe('PgPlanCache (pgvector on PGlite, then without it)', () => {
  const keyFor = async (intent: string, sources: readonly string[], changes: Partial<PlanCacheKey> = {}): Promise<PlanCacheKey> => ({
    intent,
    intentShape: 'incident:checkout',
    sourceFingerprint: await stores.knowledge.fingerprint(sources),
    policyFingerprint: 'policy-1',
    permissionFingerprint: 'roles-oncall',
    constraintEnvelope: '{"max_cost_usd":0.05}',
    plannerVersion: 'planner-test',
    capabilityFingerprint: 'caps-1',
    ...changes,
  });
  const rows = async (table: string) => Number((await stores.database.query<{ count: number }>(sql.raw(`select count(*)::int as count from ${table}`)))[0].count);

  it('finds the nearest intent with pgvector and serves a paraphrase, from the store and then from memory', async () => {
    expect(await stores.planCache.lookup(await keyFor('why did checkout fail after the deploy', ['docs', 'logs']))).toEqual({ status: 'miss' });
    await stores.planCache.put(await keyFor('why did checkout fail after the deploy', ['docs', 'logs']), 'plan-1', { candidate: 'bm25-small' });
    expect(stores.planCache.store.vectorSearch).toBe(true);
    const cold = new PgPlanCache(stores.database);
    const paraphrase = await keyFor('what caused the checkout failure after the deployment', ['docs', 'logs']);
    expect(await cold.lookup(paraphrase)).toMatchObject({ status: 'hit', tier: 'store', entry: { planHash: 'plan-1', payload: { candidate: 'bm25-small' } } });
    expect(await cold.lookup(paraphrase)).toMatchObject({ status: 'hit', tier: 'memory' });
    await cold.flush();
    // The paraphrase was filed under its own wording on the first hit, so the second hit counts there.
    const counted = await stores.database.query<{ intent_key: string; hits: number }>(sql`select intent_key, hits from plan_cache where plan_hash = 'plan-1' order by intent_key`);
    expect(counted.map((row) => [row.intent_key, row.hits])).toEqual([
      ['what caused the checkout failure after the deployment', 1],
      ['why did checkout fail after the deploy', 1],
    ]);
  });

  it('reports which exact part differed on a near miss', async () => {
    const miss = await stores.planCache.lookup(await keyFor('why did checkout fail after the deploy', ['docs', 'logs'], { constraintEnvelope: '{"max_cost_usd":0.06}' }));
    expect(miss).toMatchObject({ status: 'miss', nearMiss: { differs: ['constraints'], intent: 'why did checkout fail after the deploy', similarity: 1 } });
  });

  it('replaces an entry on put', async () => {
    const key = await keyFor('why did checkout fail after the deploy', ['docs', 'logs']);
    await stores.planCache.put(key, 'plan-2', { candidate: 'fulltext' });
    expect(await stores.planCache.lookup(key)).toMatchObject({ entry: { planHash: 'plan-2', payload: { candidate: 'fulltext' } } });
    expect(await rows("plan_cache where intent_key = 'why did checkout fail after the deploy'")).toBe(1);
  });

  it('expires entries older than the ttl', async () => {
    let now = new Date('2030-01-01T00:00:00Z');
    const cache = new PgPlanCache(stores.database, { ttlSeconds: 60, now: () => now });
    const key = await keyFor('ttl question about checkout', ['docs'], { permissionFingerprint: 'ttl' });
    await cache.put(key, 'plan-ttl', { n: 1 });
    now = new Date('2030-01-01T00:00:59Z');
    expect(await cache.lookup(key)).toMatchObject({ status: 'hit', entry: { createdAt: '2030-01-01T00:00:00.000Z' } });
    now = new Date('2030-01-01T00:01:01Z');
    expect(await cache.lookup(key)).toMatchObject({ status: 'miss', nearMiss: { differs: ['expired'] } });
    expect(await cache.purgeExpired()).toBeGreaterThanOrEqual(1);
  });

  it('retires exactly the plans that drew on a changed source, and explains the miss afterwards', async () => {
    const docsOnly = await keyFor('q docs about checkout', ['docs']);
    const logsOnly = await keyFor('q logs about checkout', ['logs']);
    await stores.planCache.put(docsOnly, 'p-docs', {});
    await stores.planCache.put(logsOnly, 'p-logs', {});
    await stores.store.ingest({ name: 'logs', kind: 'logs' }, [chunk('epsilon')], 'logs-3');
    expect(await rows("plan_cache where plan_hash = 'p-logs'")).toBe(0);
    expect(await rows("plan_cache_retired where plan_hash = 'p-logs'")).toBe(1);
    expect(await rows("plan_cache where plan_hash = 'p-docs'")).toBe(1);
    expect(await stores.planCache.lookup(docsOnly)).toMatchObject({ status: 'hit', entry: { planHash: 'p-docs' } });
    expect(await stores.planCache.lookup(logsOnly)).toMatchObject({ status: 'miss', nearMiss: { differs: ['invalidated'], invalidatedReason: 'source logs changed' } });
    const fresh = await keyFor('q logs about checkout', ['logs']);
    expect(await stores.planCache.lookup(fresh)).toMatchObject({ status: 'miss', nearMiss: { differs: ['invalidated', 'sources'] } });
  });

  it('a second process sees a retirement within the revalidation interval', async () => {
    const key = await keyFor('q cross process checkout', ['docs']);
    const other = new PgPlanCache(stores.database, { revalidateMs: 0 });
    await stores.planCache.put(key, 'p-x', {});
    expect((await other.lookup(key)).status).toBe('hit');
    await stores.planCache.invalidate({ all: true, reason: 'admin cleared the cache' });
    expect(await other.lookup(key)).toMatchObject({ status: 'miss', nearMiss: { invalidatedReason: 'admin cleared the cache' } });
  });

  it('stores per-minute counters and aggregates them into buckets', async () => {
    const since = new Date(Date.now() - 3_600_000);
    const stats = await stores.planCache.stats({ since, until: new Date(Date.now() + 60_000), bucketSeconds: 3600 });
    // This cache's own lookups (the other instances keep their counters until they flush).
    expect(stats.totals.lookups).toBeGreaterThanOrEqual(5);
    expect(stats.totals.hits).toBeGreaterThanOrEqual(2);
    expect(stats.totals.nearMisses).toBeGreaterThanOrEqual(2);
    expect(stats.totals.lookups).toBe(stats.totals.hits + stats.totals.nearMisses + stats.totals.misses);
    expect(stats.buckets).toHaveLength(1);
    expect(stats.totals.byReason).toMatchObject({ constraints: 1, invalidated: expect.any(Number) });
    expect(stats.entries.retired).toBeGreaterThanOrEqual(3);
    const again = await stores.planCache.stats({ since, until: new Date(Date.now() + 60_000), bucketSeconds: 3600 });
    expect(again.totals.lookups).toBe(stats.totals.lookups);
  });

  it('without the vector column (a server without pgvector) ranks in process with the same answers', async () => {
    await stores.database.exec('ALTER TABLE plan_cache DROP COLUMN intent_embedding; ALTER TABLE plan_cache_retired DROP COLUMN intent_embedding;');
    const plain = new PgPlanCache(stores.database, { sourceNamesOf: (fingerprint) => stores.knowledge.namesOf(fingerprint) });
    const key = await keyFor('why is checkout slow', ['docs']);
    await plain.put(key, 'p-plain', { ok: true });
    expect(plain.store.vectorSearch).toBe(false);
    const fresh = new PgPlanCache(stores.database);
    expect(await fresh.lookup({ ...key, intent: 'what makes checkout so slow' })).toMatchObject({ status: 'hit', tier: 'store', entry: { planHash: 'p-plain' } });
    expect(await fresh.lookup({ ...key, permissionFingerprint: 'roles-viewer' })).toMatchObject({ status: 'miss', nearMiss: { differs: ['permissions'] } });
    expect(await fresh.invalidateSource('docs')).toBeGreaterThanOrEqual(1);
    expect(await fresh.lookup(key)).toMatchObject({ status: 'miss', nearMiss: { differs: ['invalidated'] } });
  });
});
