/**
 * The one conformance suite every ModelCacheStorePlugin runs (architecture §5.2): the in-memory
 * store (server/runtime/modelcache) and the Postgres one (server/adapters/db), on PGlite and, with
 * TEST_DATABASE_URL, on a PostgreSQL server. Names are unique per call, so a shared database is
 * never wiped and two runs of the suite do not see each other's rows.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { ModelCacheEntry, ModelCacheStorePlugin } from '../runtime/contracts/model-cache';

const HOUR_MS = 3_600_000;

export function describeModelCacheStore(name: string, open: () => ModelCacheStorePlugin, options: { readonly skip?: boolean } = {}): void {
  describe.skipIf(options.skip === true)(`ModelCacheStorePlugin conformance: ${name}`, () => {
    const unique = () => randomUUID().slice(0, 8);
    const entry = (overrides: Partial<ModelCacheEntry> = {}): ModelCacheEntry => ({
      key: `key-${unique()}`,
      modelId: 'loop-1',
      tier: 'cheap',
      sources: [{ name: `docs-${unique()}`, versionId: 'v1' }],
      chunkIds: ['c1', 'c2'],
      text: 'The limit was lowered [1].',
      usage: { inputTokens: 812, outputTokens: 40 },
      costUsd: 0.000_937,
      latencyMs: 412,
      createdAt: new Date(Date.UTC(2026, 11, 2, 3, 0)).toISOString(),
      expiresAt: new Date(Date.UTC(2026, 11, 2, 4, 0)).toISOString(),
      ...overrides,
    });
    const during = new Date(Date.UTC(2026, 11, 2, 3, 30));

    it('returns a saved entry as it was written, until it expires', async () => {
      const store = open();
      const saved = entry();
      await store.save(saved);
      expect(await store.lookup(saved.key, during)).toEqual(saved);
      expect(await store.lookup(saved.key, new Date(Date.parse(saved.expiresAt) + 1))).toBeUndefined();
      expect(await store.lookup(`absent-${unique()}`, during)).toBeUndefined();
    });

    it('replaces the entry under the same key', async () => {
      const store = open();
      const first = entry();
      await store.save(first);
      const second = { ...first, text: 'A newer answer [2].', usage: { inputTokens: 900, outputTokens: 12 } };
      await store.save(second);
      expect((await store.lookup(first.key, during))?.text).toBe('A newer answer [2].');
    });

    it("drops exactly the entries whose prompt held a passage of the changed source", async () => {
      const store = open();
      const changed = `changed-${unique()}`;
      const other = `other-${unique()}`;
      const both = entry({ sources: [{ name: changed, versionId: 'v1' }, { name: other, versionId: 'v3' }] });
      const onlyChanged = entry({ sources: [{ name: changed, versionId: 'v1' }] });
      const untouched = entry({ sources: [{ name: other, versionId: 'v3' }] });
      for (const saved of [both, onlyChanged, untouched]) await store.save(saved);
      expect(await store.invalidateSource(changed)).toBe(2);
      expect(await store.lookup(both.key, during)).toBeUndefined();
      expect(await store.lookup(onlyChanged.key, during)).toBeUndefined();
      expect(await store.lookup(untouched.key, during)).toEqual(untouched);
      expect(await store.invalidateSource(changed)).toBe(0);
    });

    it('tallies lookups and hits per (model, intent class)', async () => {
      const store = open();
      const model = `model-${unique()}`;
      await store.recordLookup(model, 'incident', false);
      await store.recordLookup(model, 'incident', true);
      await store.recordLookup(model, 'incident', true);
      await store.recordLookup(model, 'conceptual', false);
      const mine = (await store.tallies()).filter((tally) => tally.modelId === model);
      expect([...mine].sort((a, b) => a.intentClass.localeCompare(b.intentClass))).toEqual([
        { modelId: model, intentClass: 'conceptual', lookups: 1, hits: 0 },
        { modelId: model, intentClass: 'incident', lookups: 3, hits: 2 },
      ]);
    });

    it('keeps an entry for its whole TTL even when saved long after another expired', async () => {
      const store = open();
      const old = entry({ expiresAt: new Date(during.getTime() - HOUR_MS).toISOString(), createdAt: new Date(during.getTime() - 2 * HOUR_MS).toISOString() });
      await store.save(old);
      const fresh = entry({ createdAt: during.toISOString(), expiresAt: new Date(during.getTime() + HOUR_MS).toISOString() });
      await store.save(fresh);
      expect(await store.lookup(fresh.key, during)).toEqual(fresh);
      expect(await store.lookup(old.key, during)).toBeUndefined();
    });
  });
}
