import { describe, expect, it } from 'vitest';
import { SifEmbedder } from '../../adapters/embeddings/sif-embedder';
import { openWordVectors } from '../../adapters/embeddings/word-vectors';
import { MemoryPlanCacheStore } from '../../runtime/plancache/memory-plan-cache-store';
import { SemanticPlanCache } from '../../runtime/plancache/semantic-plan-cache';
import { testKey } from '../../runtime/plancache/testing-keys';
import type { Principal } from '../../runtime/types';
import { createCallerFactory, createTRPCRouter } from '../init';
import { fakeRuntimePort } from '../fake-runtime-port';
import { planCacheRouter } from './plan-cache-router';

const createCaller = createCallerFactory(createTRPCRouter({ planCache: planCacheRouter }));
const cache = new SemanticPlanCache({ store: new MemoryPlanCacheStore(), embedder: new SifEmbedder(() => openWordVectors()), sourceNamesOf: () => ['docs', 'logs'] });
const callerAs = (principal?: Principal, planCache: SemanticPlanCache | null = cache) =>
  createCaller({ runtime: async () => fakeRuntimePort({ planCache: () => planCache ?? undefined }), principal });
const request = { goal: 'Why did checkout-api fail after the deploy?', roles: ['oncall'], versions: {} };

describe('plan cache router', () => {
  it('shows a viewer lookups, hits and near misses per bucket with the hit rate', async () => {
    await cache.lookup(testKey(request));
    await cache.put(testKey(request), 'plan-a', {});
    await cache.lookup(testKey({ ...request, goal: 'What caused the checkout-api failure after the deployment' }));
    await cache.lookup(testKey({ ...request, roles: ['viewer'] }));
    const stats = await callerAs({ user: 'v', roles: ['viewer'] }).planCache.stats({ sinceMinutes: 120, bucketMinutes: 60 });
    expect(stats.totals).toMatchObject({ lookups: 3, hits: 1, nearMisses: 1, misses: 1, hitRate: 0.3333, byReason: { permissions: 1 } });
    expect(stats.buckets.length).toBeGreaterThanOrEqual(1);
    // The served paraphrase is filed under its own wording too (same plan, same key).
    expect(stats.entries).toEqual({ live: 2, expired: 0, retired: 0 });
    expect((await callerAs({ user: 'v', roles: ['viewer'] }).planCache.stats()).totals.lookups).toBe(3);
  });

  it('refuses stats without sign-in and below viewer; rejects too many buckets', async () => {
    await expect(callerAs().planCache.stats()).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    await expect(callerAs({ user: 'g', roles: ['guest'] }).planCache.stats()).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(callerAs({ user: 'v', roles: ['viewer'] }).planCache.stats({ sinceMinutes: 43200, bucketMinutes: 1 })).rejects.toMatchObject({ code: 'BAD_REQUEST' });
  });

  it('lets an admin retire the plans on a source, recording who and why', async () => {
    const result = await callerAs({ user: 'ada', roles: ['admin'] }).planCache.invalidate({ sourceName: 'logs', reason: 'bad ingest' });
    expect(result).toEqual({ retired: 2, sourceName: 'logs' });
    expect(await cache.lookup(testKey(request))).toMatchObject({ status: 'miss', nearMiss: { differs: ['invalidated'], invalidatedReason: 'ada: bad ingest' } });
    await cache.put(testKey(request), 'plan-b', {});
    expect(await callerAs({ user: 'ada', roles: ['admin'] }).planCache.invalidate({ all: true })).toEqual({ retired: 1, all: true });
  });

  it('refuses invalidation without sign-in and to an approver', async () => {
    await cache.put(testKey(request), 'plan-c', {});
    await expect(callerAs().planCache.invalidate({ all: true })).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    await expect(callerAs({ user: 'p', roles: ['approver'] }).planCache.invalidate({ all: true })).rejects.toMatchObject({ code: 'FORBIDDEN' });
    expect((await cache.lookup(testKey(request))).status).toBe('hit');
    await expect(callerAs({ user: 'ada', roles: ['admin'] }).planCache.invalidate({ sourceName: '' })).rejects.toMatchObject({ code: 'BAD_REQUEST' });
  });

  it('says so when the runtime has no plan cache', async () => {
    await expect(callerAs({ user: 'v', roles: ['viewer'] }, null).planCache.stats()).rejects.toMatchObject({ code: 'CONFLICT' });
  });
});
