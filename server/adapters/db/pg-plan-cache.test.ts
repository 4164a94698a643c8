import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

describe('PgPlanCache', () => {
  const keyFor = async (intent: string, sources: readonly string[]): Promise<PlanCacheKey> => ({
    intent,
    sourceFingerprint: await stores.knowledge.fingerprint(sources),
    policyFingerprint: 'policy-1',
    constraintEnvelope: 'max_cost_usd<=0.05',
  });

  it('misses, then hits on the exact key only, counting hits', async () => {
    const key = await keyFor('why did checkout fail', ['docs', 'logs']);
    expect(await stores.planCache.get(key)).toBeUndefined();
    await stores.planCache.put(key, 'plan-1', { candidate: 'bm25-small' });
    const first = await stores.planCache.get(key);
    expect(first).toMatchObject({ key, planHash: 'plan-1', payload: { candidate: 'bm25-small' }, hits: 1 });
    expect((await stores.planCache.get(key))?.hits).toBe(2);
    expect(await stores.planCache.get({ ...key, policyFingerprint: 'policy-2' })).toBeUndefined();
    expect(await stores.planCache.get({ ...key, constraintEnvelope: 'max_cost_usd<=0.06' })).toBeUndefined();
    expect(await stores.planCache.get({ ...key, intent: 'why did checkout fail?' })).toBeUndefined();
  });

  it('replaces an entry on put and resets its hits', async () => {
    const key = await keyFor('why did checkout fail', ['docs', 'logs']);
    await stores.planCache.put(key, 'plan-2', { candidate: 'fulltext' });
    expect(await stores.planCache.get(key)).toMatchObject({ planHash: 'plan-2', payload: { candidate: 'fulltext' }, hits: 1 });
  });

  it('expires entries older than the ttl', async () => {
    let now = new Date('2030-01-01T00:00:00Z');
    const cache = new PgPlanCache(stores.database, { ttlSeconds: 60, now: () => now });
    const key = { intent: 'ttl', sourceFingerprint: 'f', policyFingerprint: 'p', constraintEnvelope: 'c' };
    await cache.put(key, 'plan-ttl', { n: 1 });
    now = new Date('2030-01-01T00:00:59Z');
    expect(await cache.get(key)).toMatchObject({ planHash: 'plan-ttl', createdAt: '2030-01-01T00:00:00.000Z' });
    now = new Date('2030-01-01T00:01:01Z');
    expect(await cache.get(key)).toBeUndefined();
    expect(await cache.purgeExpired()).toBeGreaterThanOrEqual(1);
    await cache.put(key, 'plan-ttl-2', { n: 2 });
    expect(await cache.get(key)).toMatchObject({ planHash: 'plan-ttl-2' });
  });

  it('invalidates exactly the entries whose fingerprint involved the source', async () => {
    const both = await keyFor('q both', ['docs', 'logs']);
    const docsOnly = await keyFor('q docs', ['docs']);
    const logsOnly = await keyFor('q logs', ['logs']);
    await stores.planCache.put(both, 'p-both', {});
    await stores.planCache.put(docsOnly, 'p-docs', {});
    await stores.planCache.put(logsOnly, 'p-logs', {});
    // Explicit names override the fingerprint lookup.
    const explicit = { intent: 'q explicit', sourceFingerprint: 'made-elsewhere', policyFingerprint: 'p', constraintEnvelope: 'c' };
    await stores.planCache.put(explicit, 'p-explicit', {}, ['logs']);
    expect(await stores.planCache.invalidateSource('logs')).toBe(3);
    expect(await stores.planCache.get(both)).toBeUndefined();
    expect(await stores.planCache.get(logsOnly)).toBeUndefined();
    expect(await stores.planCache.get(explicit)).toBeUndefined();
    expect(await stores.planCache.get(docsOnly)).toMatchObject({ planHash: 'p-docs' });
    expect(await stores.planCache.invalidateSource('logs')).toBe(0);
  });

  it('drops a source’s entries when the store marks it stale', async () => {
    const key = await keyFor('q stale', ['docs']);
    await stores.planCache.put(key, 'p-stale', {});
    await stores.store.markStale('docs', 'upstream changed');
    expect(await stores.planCache.get(key)).toBeUndefined();
  });

  it('stores a null payload', async () => {
    const key = { intent: 'null', sourceFingerprint: 'f', policyFingerprint: 'p', constraintEnvelope: 'c' };
    await stores.planCache.put(key, 'p-null', null);
    expect(await stores.planCache.get(key)).toMatchObject({ planHash: 'p-null', payload: null });
  });
});
