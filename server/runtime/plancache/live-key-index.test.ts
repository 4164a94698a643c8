import { describe, expect, it } from 'vitest';
import type { PlanCacheRecord } from '../contracts/plan-cache';
import { LiveKeyIndex } from './live-key-index';
import { MemoryPlanCacheStore } from './memory-plan-cache-store';

const EMBEDDER = 'sif+focus-v1';

const record = (exactKey: string, sourceNames: readonly string[] = ['docs'], embedderId = EMBEDDER): PlanCacheRecord =>
  Object.freeze({
    id: `plan_${exactKey}`,
    exactKey,
    key: { intent: exactKey, intentShape: '', sourceFingerprint: '', policyFingerprint: '', permissionFingerprint: '', constraintEnvelope: '', plannerVersion: '', capabilityFingerprint: '' },
    embedderId,
    vector: new Float32Array([1, 0]),
    sourceNames,
    planHash: 'h',
    payload: {},
    createdAt: new Date('2030-01-01T00:00:00Z'),
    hits: 0,
  });

describe('LiveKeyIndex', () => {
  it('answers nothing before its first sync, then only for keys the store does not hold', async () => {
    const store = new MemoryPlanCacheStore();
    await store.upsert(record('k1'));
    await store.upsert(record('k-other-embedder', ['docs'], 'other'));
    const index = new LiveKeyIndex(store, EMBEDDER);
    expect(index.absent('k2')).toBe(false);
    await index.sync();
    expect(index.absent('k1')).toBe(false);
    expect(index.absent('k2')).toBe(true);
    expect(index.absent('k-other-embedder')).toBe(true);
  });

  it('takes this process\'s writes at once and another process\'s on the next sync, naming the keys that appeared', async () => {
    const store = new MemoryPlanCacheStore();
    const index = new LiveKeyIndex(store, EMBEDDER);
    await index.sync();
    await store.upsert(record('mine'));
    index.add('mine');
    expect(index.absent('mine')).toBe(false);
    await store.upsert(record('theirs'));
    expect(index.absent('theirs')).toBe(true);
    expect(await index.sync()).toEqual(['theirs']);
    expect(index.absent('theirs')).toBe(false);
    expect(await index.sync()).toEqual([]);
  });

  it('reads the keys again only when the live version moved, and drops retired keys once told', async () => {
    const store = new MemoryPlanCacheStore();
    let reads = 0;
    const list = store.liveExactKeys.bind(store);
    store.liveExactKeys = async (embedderId) => {
      reads++;
      return list(embedderId);
    };
    await store.upsert(record('docs-plan', ['docs']));
    await store.upsert(record('logs-plan', ['logs']));
    const index = new LiveKeyIndex(store, EMBEDDER);
    await index.sync();
    await index.sync();
    expect(reads).toBe(1);
    await store.retire({ sourceName: 'docs' }, 'source docs changed', new Date('2030-01-01T00:01:00Z'));
    index.stale();
    await index.sync();
    expect(reads).toBe(2);
    expect(index.absent('docs-plan')).toBe(true);
    expect(index.absent('logs-plan')).toBe(false);
  });

  it('keeps a key this process wrote while a reload was reading', async () => {
    const store = new MemoryPlanCacheStore();
    const index = new LiveKeyIndex(store, EMBEDDER);
    await index.sync();
    await store.upsert(record('before'));
    const list = store.liveExactKeys.bind(store);
    store.liveExactKeys = async (embedderId) => {
      const keys = await list(embedderId);
      // Lands after the store answered: the read cannot contain it.
      await store.upsert(record('during'));
      index.add('during');
      return keys;
    };
    await index.sync();
    expect(index.absent('before')).toBe(false);
    expect(index.absent('during')).toBe(false);
  });

  it('never answers over a store that cannot list its keys', async () => {
    const store = new MemoryPlanCacheStore();
    Object.assign(store, { liveExactKeys: undefined });
    const index = new LiveKeyIndex(store, EMBEDDER);
    expect(await index.sync()).toEqual([]);
    expect(index.absent('anything')).toBe(false);
  });
});
