import { describe, expect, it } from 'vitest';
import { SifEmbedder } from '../../adapters/embeddings/sif-embedder';
import { openWordVectors } from '../../adapters/embeddings/word-vectors';
import { MemoryPlanCacheStore } from './memory-plan-cache-store';
import { SemanticPlanCache } from './semantic-plan-cache';
import { testKey, type TestRequest } from './testing-keys';

const embedder = new SifEmbedder(() => openWordVectors());
const base: TestRequest = { goal: 'Why did checkout-api fail after the deploy?', roles: ['oncall'], budget: { max_cost_usd: 0.05 }, versions: {} };

function cacheAt(clock: { now: Date }, ttlSeconds?: number) {
  const store = new MemoryPlanCacheStore();
  const cache = new SemanticPlanCache({ store, embedder, ttlSeconds, now: () => clock.now, sourceNamesOf: () => ['docs', 'logs', 'incidents'] });
  return { store, cache };
}

describe('SemanticPlanCache', () => {
  it('serves a paraphrase from memory, the same goal verbatim, and never another question about the same service', async () => {
    const { cache } = cacheAt({ now: new Date('2030-01-01T00:00:00Z') });
    expect((await cache.lookup(testKey(base))).status).toBe('miss');
    await cache.put(testKey(base), 'plan-a', { chosen: 'bm25' });
    const paraphrase = await cache.lookup(testKey({ ...base, goal: 'What caused the checkout-api failure after the deployment' }));
    expect(paraphrase).toMatchObject({ status: 'hit', tier: 'memory', entry: { planHash: 'plan-a', payload: { chosen: 'bm25' } } });
    expect(paraphrase.similarity).toBeGreaterThan(0.8);
    expect(paraphrase.similarity).toBeLessThan(1);
    expect(await cache.lookup(testKey(base))).toMatchObject({ status: 'hit', similarity: 1 });
    const otherService = await cache.lookup(testKey({ ...base, goal: 'Why did payments-service fail after the deploy?' }));
    expect(otherService.status).toBe('miss');
    expect(otherService.nearMiss?.differs[0]).toBe('intent_shape');
    const otherTopic = await cache.lookup(testKey({ ...base, goal: 'How does checkout-api handle retries after the deploy?' }));
    expect(otherTopic.status).toBe('miss');
  });

  it('keeps the plan as it was put: a caller changing its object afterwards reaches neither the store nor a hit', async () => {
    const { store, cache } = cacheAt({ now: new Date('2030-01-01T00:00:00Z') });
    const payload = { chosen: 'bm25', estimates: { tokens: 120 } };
    await cache.put(testKey(base), 'plan-a', payload);
    payload.estimates.tokens = 999;
    expect((await cache.lookup(testKey(base))).entry?.payload).toEqual({ chosen: 'bm25', estimates: { tokens: 120 } });
    const reopened = new SemanticPlanCache({ store, embedder, now: () => new Date('2030-01-01T00:00:00Z'), sourceNamesOf: () => ['docs', 'logs', 'incidents'] });
    expect((await reopened.lookup(testKey(base))).entry?.payload).toEqual({ chosen: 'bm25', estimates: { tokens: 120 } });
  });

  it('names the key part that differed on a near miss', async () => {
    const { cache } = cacheAt({ now: new Date('2030-01-01T00:00:00Z') });
    await cache.put(testKey(base), 'plan-a', {});
    const cases: [Partial<TestRequest>, string][] = [
      [{ budget: { max_cost_usd: 0.06 } }, 'constraints'],
      [{ roles: ['viewer'] }, 'permissions'],
      [{ versions: { docs: 2 } }, 'sources'],
      [{ goal: 'Why did checkout-api return wrong prices after the deploy?' }, 'intent'],
    ];
    for (const [change, part] of cases) {
      const lookup = await cache.lookup(testKey({ ...base, ...change }));
      expect(lookup.status, part).toBe('miss');
      expect(lookup.nearMiss?.differs[0], part).toBe(part);
    }
  });

  it('expires entries after the ttl and reports them as expired', async () => {
    const clock = { now: new Date('2030-01-01T00:00:00Z') };
    const { cache } = cacheAt(clock, 60);
    await cache.put(testKey(base), 'plan-ttl', {});
    clock.now = new Date('2030-01-01T00:00:59Z');
    expect((await cache.lookup(testKey(base))).status).toBe('hit');
    clock.now = new Date('2030-01-01T00:01:01Z');
    expect(await cache.lookup(testKey(base))).toMatchObject({ status: 'miss', nearMiss: { differs: ['expired'] } });
  });

  it('retires the plans on a changed source, keeping them only to explain the miss', async () => {
    const { cache, store } = cacheAt({ now: new Date('2030-01-01T00:00:00Z') });
    await cache.put(testKey(base), 'plan-a', {});
    expect(await cache.invalidateSource('payroll')).toBe(0);
    expect(await cache.invalidateSource('logs')).toBe(1);
    const lookup = await cache.lookup(testKey(base));
    expect(lookup).toMatchObject({ status: 'miss', nearMiss: { differs: ['invalidated'], invalidatedReason: 'source logs changed' } });
    expect(await store.entryCounts(new Date('2030-01-01T00:00:00Z'))).toEqual({ live: 0, expired: 0, retired: 1 });
  });

  it('counts lookups, hits and near misses per time bucket', async () => {
    const clock = { now: new Date('2030-01-01T00:00:10Z') };
    const { cache } = cacheAt(clock);
    await cache.lookup(testKey(base));
    await cache.put(testKey(base), 'plan-a', {});
    await cache.lookup(testKey(base));
    clock.now = new Date('2030-01-01T00:02:10Z');
    await cache.lookup(testKey(base));
    await cache.lookup(testKey({ ...base, roles: ['viewer'] }));
    const stats = await cache.stats({ since: new Date('2030-01-01T00:00:00Z'), until: new Date('2030-01-01T00:05:00Z'), bucketSeconds: 120 });
    expect(stats.buckets.map((bucket) => [bucket.start, bucket.lookups, bucket.hits, bucket.nearMisses, bucket.misses])).toEqual([
      ['2030-01-01T00:00:00.000Z', 2, 1, 0, 1],
      ['2030-01-01T00:02:00.000Z', 2, 1, 1, 0],
    ]);
    expect(stats.totals).toMatchObject({ lookups: 4, hits: 2, hitRate: 0.5, byReason: { permissions: 1 } });
    expect(stats.entries.live).toBe(1);
  });

  it('writes a plan behind the request: the next identical lookup hits once the write has landed', async () => {
    const { cache, store } = cacheAt({ now: new Date('2030-01-01T00:00:00Z') });
    expect((await cache.lookup(testKey(base), { nearMiss: 'behind' })).status).toBe('miss');
    let built = 0;
    expect(cache.putBehind(testKey(base), 'plan-behind', () => ({ chosen: 'bm25', built: ++built }))).toBe(true);
    expect(built).toBe(0); // the payload is built behind too
    expect(await store.entryCounts(new Date('2030-01-01T00:00:00Z'))).toMatchObject({ live: 0 });
    await cache.flush();
    expect(await cache.lookup(testKey(base))).toMatchObject({ status: 'hit', tier: 'memory', entry: { planHash: 'plan-behind', payload: { chosen: 'bm25', built: 1 } } });
    expect(cache.writeBehindStats).toMatchObject({ done: 2, failed: 0, pending: 0 }); // the diagnosis and the write
  });

  it('diagnoses a near miss behind the request: the miss returns without it and the counters still get it', async () => {
    const { cache } = cacheAt({ now: new Date('2030-01-01T00:00:10Z') });
    await cache.put(testKey(base), 'plan-a', {});
    const viewer = testKey({ ...base, roles: ['viewer'] });
    expect(await cache.lookup(viewer, { nearMiss: 'behind' })).toEqual({ status: 'miss' });
    expect((await cache.lookup(viewer)).nearMiss?.differs[0]).toBe('permissions');
    const stats = await cache.stats({ since: new Date('2030-01-01T00:00:00Z'), until: new Date('2030-01-01T00:05:00Z'), bucketSeconds: 300 });
    expect(stats.totals).toMatchObject({ lookups: 2, nearMisses: 2, byReason: { permissions: 2 } });
  });

  it('counts a failed write behind and plans cold next time', async () => {
    const store = new MemoryPlanCacheStore();
    store.upsert = async () => Promise.reject(new Error('disk full'));
    const warnings: string[] = [];
    const cache = new SemanticPlanCache({ store, embedder, writeBehind: { delayMs: 0, warn: (message) => warnings.push(message) } });
    cache.putBehind(testKey(base), 'plan-a', () => ({}));
    await cache.flush();
    expect(cache.writeBehindStats).toMatchObject({ failed: 1, done: 0 });
    expect(warnings[0]).toMatch(/plan write failed.*disk full/);
    expect((await cache.lookup(testKey(base))).status).toBe('miss');
  });

  it('answers a miss whose key no stored plan has without reading the store, and behind the request without embedding the goal', async () => {
    const clock = { now: new Date('2030-01-01T00:00:00Z') };
    const { store, cache } = cacheAt(clock);
    let bucketReads = 0;
    const candidates = store.candidates.bind(store);
    store.candidates = async (...args) => {
      bucketReads++;
      return candidates(...args);
    };
    let embedded = 0;
    const counting = new SemanticPlanCache({ store, embedder: { ...embedder, contract: embedder.contract, id: embedder.id, dimensions: embedder.dimensions, embed: async (texts) => (embedded++, embedder.embed(texts)) }, now: () => clock.now });
    expect(await counting.lookup(testKey(base), { nearMiss: 'behind' })).toEqual({ status: 'miss' });
    expect([bucketReads, embedded]).toEqual([0, 0]);
    await counting.flush();
    expect(embedded).toBeGreaterThan(0);
    expect((await counting.lookup(testKey(base))).status).toBe('miss');
    expect(bucketReads).toBe(0);
    // Once a plan is stored under the key, the bucket is read (by another cache over the same store too).
    await cache.put(testKey(base), 'plan-a', {});
    expect(await new SemanticPlanCache({ store, embedder, now: () => clock.now }).lookup(testKey(base))).toMatchObject({ status: 'hit', tier: 'store' });
    expect(bucketReads).toBe(1);
  });

  it("serves another process's new plan within the revalidation interval, even for a key it looked up before", async () => {
    const clock = { now: new Date('2030-01-01T00:00:00Z') };
    const { store, cache } = cacheAt(clock);
    const other = new SemanticPlanCache({ store, embedder, now: () => clock.now, sourceNamesOf: () => ['docs'] });
    expect((await cache.lookup(testKey(base))).status).toBe('miss');
    await other.put(testKey(base), 'plan-b', {});
    expect((await cache.lookup(testKey(base))).status).toBe('miss');
    clock.now = new Date('2030-01-01T00:00:01.5Z');
    expect(await cache.lookup(testKey(base))).toMatchObject({ status: 'hit', tier: 'store', entry: { planHash: 'plan-b' } });
  });

  it('a retirement takes its keys out of the index: the next lookup under a retired key reads no bucket', async () => {
    const clock = { now: new Date('2030-01-01T00:00:00Z') };
    const { store, cache } = cacheAt(clock);
    await cache.put(testKey(base), 'plan-a', {});
    expect((await cache.lookup(testKey(base))).status).toBe('hit');
    let bucketReads = 0;
    const candidates = store.candidates.bind(store);
    store.candidates = async (...args) => {
      bucketReads++;
      return candidates(...args);
    };
    expect(await cache.invalidateSource('logs')).toBe(1);
    const after = await cache.lookup(testKey(base));
    expect(after.status).toBe('miss');
    expect(after.nearMiss?.invalidatedReason).toBe('source logs changed');
    expect(bucketReads).toBe(0);
  });

  it('treats an embedder failure as a miss, not a failed plan', async () => {
    const failing = { ...embedder, contract: embedder.contract, id: 'broken', dimensions: 100, embed: async () => Promise.reject(new Error('down')) };
    const cache = new SemanticPlanCache({ store: new MemoryPlanCacheStore(), embedder: failing });
    expect(await cache.lookup(testKey(base))).toEqual({ status: 'miss', error: 'intent embedder failed: down' });
  });

  it('treats a store failure as a miss that says why: reading the key bucket, or the key index', async () => {
    const store = new MemoryPlanCacheStore();
    await new SemanticPlanCache({ store, embedder }).put(testKey(base), 'plan-a', {});
    store.candidates = async () => Promise.reject(new Error('connection refused'));
    expect(await new SemanticPlanCache({ store, embedder }).lookup(testKey(base))).toEqual({ status: 'miss', error: 'plan cache store failed: connection refused' });
    store.liveExactKeys = async () => Promise.reject(new Error('connection reset'));
    expect(await new SemanticPlanCache({ store, embedder }).lookup(testKey(base))).toEqual({ status: 'miss', error: 'plan cache store failed: connection reset' });
  });
});
