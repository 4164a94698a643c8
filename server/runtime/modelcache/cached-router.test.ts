import { describe, expect, it } from 'vitest';
import type { ModelRequest } from '../contracts/model';
import { ROUTER_CONTRACT, type RoutedResult, type RouterPlugin } from '../contracts/router';
import { demoTiers } from '../planner/testing/demo-planning-context';
import type { ContextItem, Hit } from '../types';
import { cachedRouter, type CallScope } from './cached-router';
import { MemoryModelCacheStore } from './memory-model-cache-store';
import { ModelContextCache } from './model-context-cache';

/** A router over the demo tiers that answers every call itself, counting them; `cheap` can be made to fall back. */
function countingRouter(options: { readonly fallBack?: boolean } = {}) {
  const calls: string[] = [];
  const router: RouterPlugin = {
    contract: ROUTER_CONTRACT,
    tiers: () => demoTiers(),
    countTokens: (_tier, text) => text.length,
    async complete(tier, request): Promise<RoutedResult> {
      calls.push(tier);
      const answered = options.fallBack ? 'premium' : tier;
      return { text: `answer ${calls.length} from ${answered}: ${request.messages.at(-1)?.content.slice(0, 12)}`, usage: { inputTokens: 800, outputTokens: 40, cachedInputTokens: 512 }, costUsd: 0.0012, latencyMs: 300, modelId: `model-of-${answered}`, tier: answered, fallbacks: options.fallBack ? [{ tier, error: 'HTTP 500' }] : [] };
    },
  };
  return { router, calls };
}

const hit = (chunkId: string, sourceName: string, sourceVersionId: string): Hit => ({ chunkId, sourceName, sourceKind: 'docs', sourceVersionId, title: chunkId, text: `text of ${chunkId}`, score: 1, rank: 1, method: 'bm25', tokens: 10 });
const items = (...hits: Hit[]): ContextItem[] => hits.map((entry, index) => ({ ref: index + 1, hit: entry, text: entry.text, tokens: entry.tokens, compressed: false }));
const request = (question: string): ModelRequest => ({ messages: [{ role: 'system', content: 'Answer from the context.' }, { role: 'user', content: question }], maxOutputTokens: 300, timeoutMs: 5_000 });

function scopeOf(context: ContextItem[], versions: Record<string, string>, readable: (name: string) => boolean = () => true): CallScope {
  return { items: context, intentClass: 'incident', mayReadSources: (names) => names.every(readable), currentVersions: async () => new Map(Object.entries(versions)) };
}

describe('cachedRouter', () => {
  const runbook = items(hit('c1', 'runbooks', 'v1'), hit('c2', 'deploy-logs', 'v7'));
  const versions = { runbooks: 'v1', 'deploy-logs': 'v7' };

  it('answers a repeated call from the cache without reaching the router, and reports what it saved', async () => {
    const { router, calls } = countingRouter();
    const cache = new ModelContextCache(new MemoryModelCacheStore(), { ttlSeconds: 60 });
    const first = await cachedRouter(router, cache, scopeOf(runbook, versions)).complete('cheap', request('Why did checkout fail?'));
    const second = await cachedRouter(router, cache, scopeOf(runbook, versions)).complete('cheap', request('Why did checkout fail?'));
    expect(calls).toEqual(['cheap']);
    expect(first.cache).toEqual({ status: 'miss' });
    expect(first.usage.cachedInputTokens).toBe(512);
    expect(second).toMatchObject({ text: first.text, tier: 'cheap', modelId: 'model-of-cheap', costUsd: 0, usage: { inputTokens: 0, outputTokens: 0 }, cache: { status: 'hit', savedTokens: 840, savedCostUsd: 0.0012 } });
    expect(cache.tallies()).toEqual([{ modelId: 'gpt-4o-mini', intentClass: 'incident', lookups: 2, hits: 1 }]);
  });

  it('misses on any other prompt, output cap, tier or local-only flag', async () => {
    const { router, calls } = countingRouter();
    const cache = new ModelContextCache(new MemoryModelCacheStore(), { ttlSeconds: 60 });
    const cached = () => cachedRouter(router, cache, scopeOf(runbook, versions));
    await cached().complete('cheap', request('Why did checkout fail?'));
    await cached().complete('cheap', request('Why did payments fail?'));
    await cached().complete('cheap', { ...request('Why did checkout fail?'), maxOutputTokens: 50 });
    await cached().complete('premium', request('Why did checkout fail?'));
    await cached().complete('cheap', request('Why did checkout fail?'), { localOnly: true });
    expect(calls).toHaveLength(5);
  });

  it('never serves an answer made from an older version of a cited source', async () => {
    const { router, calls } = countingRouter();
    const cache = new ModelContextCache(new MemoryModelCacheStore(), { ttlSeconds: 60 });
    await cachedRouter(router, cache, scopeOf(runbook, versions)).complete('cheap', request('Why?'));
    // Another process ingested runbooks v2: this process's hook never ran, the entry is still stored.
    const stale = await cachedRouter(router, cache, scopeOf(runbook, { ...versions, runbooks: 'v2' })).complete('cheap', request('Why?'));
    expect(stale.cache?.status).toBe('miss');
    // The same passages retrieved from the new version are a different prompt key altogether.
    const renewed = items(hit('c1', 'runbooks', 'v2'), hit('c2', 'deploy-logs', 'v7'));
    await cachedRouter(router, cache, scopeOf(renewed, { ...versions, runbooks: 'v2' })).complete('cheap', request('Why?'));
    expect(calls).toHaveLength(3);
    expect(cache.misses().get('stale_version')).toBe(1);
  });

  it("never serves a cached answer of a source the caller may not read", async () => {
    const { router, calls } = countingRouter();
    const cache = new ModelContextCache(new MemoryModelCacheStore(), { ttlSeconds: 60 });
    const payroll = items(hit('p1', 'payroll', 'v1'));
    await cachedRouter(router, cache, scopeOf(payroll, { payroll: 'v1' })).complete('cheap', request('What is the salary band?'));
    const outsider = await cachedRouter(router, cache, scopeOf(payroll, { payroll: 'v1' }, (name) => name !== 'payroll')).complete('cheap', request('What is the salary band?'));
    expect(outsider.cache?.status).toBe('miss');
    expect(calls).toHaveLength(2);
    expect(cache.misses().get('not_readable')).toBe(1);
  });

  it('keeps nothing a fallback tier answered: the key names the model asked for', async () => {
    const { router, calls } = countingRouter({ fallBack: true });
    const cache = new ModelContextCache(new MemoryModelCacheStore(), { ttlSeconds: 60 });
    await cachedRouter(router, cache, scopeOf(runbook, versions)).complete('cheap', request('Why?'));
    await cachedRouter(router, cache, scopeOf(runbook, versions)).complete('cheap', request('Why?'));
    expect(calls).toHaveLength(2);
  });

  it('expires entries after ttl_seconds', async () => {
    const { router, calls } = countingRouter();
    let now = Date.UTC(2026, 11, 2, 3, 0);
    const cache = new ModelContextCache(new MemoryModelCacheStore(), { ttlSeconds: 60, now: () => new Date(now) });
    await cachedRouter(router, cache, scopeOf(runbook, versions)).complete('cheap', request('Why?'));
    now += 59_000;
    expect((await cachedRouter(router, cache, scopeOf(runbook, versions)).complete('cheap', request('Why?'))).cache?.status).toBe('hit');
    now += 2_000;
    expect((await cachedRouter(router, cache, scopeOf(runbook, versions)).complete('cheap', request('Why?'))).cache?.status).toBe('miss');
    expect(calls).toHaveLength(2);
  });

  it('treats a failing store as a miss and still answers', async () => {
    const { router, calls } = countingRouter();
    const store = new MemoryModelCacheStore();
    store.lookup = async () => Promise.reject(new Error('connection reset'));
    store.save = async () => Promise.reject(new Error('connection reset'));
    const warnings: string[] = [];
    const cache = new ModelContextCache(store, { ttlSeconds: 60, warn: (message) => warnings.push(message) });
    const result = await cachedRouter(router, cache, scopeOf(runbook, versions)).complete('cheap', request('Why?'));
    expect(result.text).toMatch(/^answer 1/);
    expect(calls).toEqual(['cheap']);
    expect(warnings).toEqual(['[model-cache] looking up a cached model response: connection reset', '[model-cache] keeping a model response: connection reset']);
  });
  it('never caches a tool loop: its answer rests on what its tools read at call time, under the run’s rights', async () => {
    const { router, calls } = countingRouter();
    const cache = new ModelContextCache(new MemoryModelCacheStore(), { ttlSeconds: 60 });
    const looping: ModelRequest = { ...request('Why did checkout fail?'), toolLoop: { tools: [], maxSteps: 4, resultTokensPerStep: 100 } };
    const first = await cachedRouter(router, cache, scopeOf(runbook, versions)).complete('cheap', looping);
    const second = await cachedRouter(router, cache, scopeOf(runbook, versions)).complete('cheap', looping);
    expect(calls).toEqual(['cheap', 'cheap']);
    expect(first.cache).toBeUndefined();
    expect(second.cache).toBeUndefined();
  });
});
