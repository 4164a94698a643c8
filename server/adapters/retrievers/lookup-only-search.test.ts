/**
 * Lookup-only passages (chunks.lookup_only: the file diffs a commit's chunk cut) are found by a lookup
 * search and by no other: bm25 and full-text searches, per source or over all, never return them.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RetrieverPlugin } from '../../runtime/contracts/retriever';
import type { IngestChunk } from '../../runtime/contracts/store';
import { openStores, type Stores } from '../db/open-stores';

const root = mkdtempSync(path.join(tmpdir(), 'cr-lookup-only-'));
let stores: Stores;
let bm25: RetrieverPlugin;
let fulltext: RetrieverPlugin;

const chunk = (ordinal: number, text: string, lookupOnly = false): IngestChunk => ({
  uri: 'commit 2973ab6b1c3f9ebee8a10ef2f67d454261430675',
  ordinal,
  title: ordinal === 0 ? 'commit 2973ab6: Initial import' : `commit 2973ab6: Initial import · helm/values-${ordinal}.yaml`,
  text,
  tokens: text.split(/\s+/).length,
  locator: ordinal === 0 ? 'commit 2973ab6' : `commit 2973ab6 · helm/values-${ordinal}.yaml`,
  ...(lookupOnly ? { lookupOnly } : {}),
});

beforeAll(async () => {
  stores = await openStores({ dataDir: path.join(root, 'pglite') });
  await stores.store.ingest(
    { name: 'infra', kind: 'git' },
    [chunk(0, 'Initial import of the zebra service configuration'), chunk(1, '+resources:\n+  limits: {memory: 3Gi}\n+zebrasetting: quokka', true), chunk(2, '+zebrasetting: wombat\n+replicaCount: 3', true)],
    'infra-1',
  );
  await stores.store.ingest({ name: 'runbooks', kind: 'docs' }, [{ uri: 'r.md', ordinal: 0, title: 'Runbook', text: 'The zebrasetting is described in the runbook.', tokens: 7 }], 'runbooks-1');
  [bm25, fulltext] = stores.retrievers;
});

afterAll(async () => {
  await stores?.close();
  rmSync(root, { recursive: true, force: true });
});

const lookupLocators = (hits: readonly { locator?: string }[]) => hits.map((hit) => hit.locator).filter((locator) => locator?.includes(' · '));

describe('lookup-only passages', () => {
  it('are returned by no general search, over one source or all', async () => {
    for (const retriever of [bm25, fulltext]) {
      for (const sources of [['infra'], ['infra', 'runbooks']]) {
        const hits = await retriever.search({ text: 'zebrasetting quokka memory limits', k: 20, sources, identifiers: [] });
        expect(lookupLocators(hits), `${retriever.method} over ${sources.join(', ')}`).toEqual([]);
      }
      const each = await retriever.searchEach?.({ text: 'zebrasetting quokka', k: 20, sources: ['infra', 'runbooks'], identifiers: [] });
      for (const list of each?.values() ?? []) expect(lookupLocators(list)).toEqual([]);
      const many = await retriever.searchMany?.(['zebrasetting quokka', 'memory limits'], { text: '', k: 20, sources: ['infra'], identifiers: [] });
      for (const list of many ?? []) expect(lookupLocators(list)).toEqual([]);
    }
  });

  it('are found by a lookup search of their own sources, best first, and nothing else is', async () => {
    expect(bm25.capabilities().lookupOnly).toBe(true);
    const hits = await bm25.searchLookupOnly!({ text: 'zebrasetting quokka', k: 5, sources: ['infra', 'runbooks'], identifiers: [] });
    expect(hits.map((hit) => hit.locator)).toEqual(['commit 2973ab6 · helm/values-1.yaml', 'commit 2973ab6 · helm/values-2.yaml']);
    expect(hits[0]).toMatchObject({ sourceName: 'infra', sourceKind: 'git', method: 'bm25' });
    expect(await bm25.searchLookupOnly!({ text: 'zebrasetting quokka', k: 5, sources: ['runbooks'], identifiers: [] })).toEqual([]);
  });
});
