import { describe, expect, it } from 'vitest';
import type { RetrieverCapabilities, RetrieverPlugin } from '../contracts/retriever';
import type { ExecutionGraph } from '../ir/graph';
import type { Hit } from '../types';
import { lookupParts, settingLookupHop, settingLookupRank, withSettingLookup } from './setting-lookup';

const capability = (method: string, lookupOnly: boolean): RetrieverCapabilities => ({ method, available: true, requires: [], latencyMs: 1, recallPrior: {}, ...(lookupOnly ? { lookupOnly } : {}) }) as RetrieverCapabilities;
const hopInput = { retry: { maxAttempts: 1, backoffMs: 0 }, timeoutMs: 1000, sourceKinds: ['docs', 'git'] as const, estimateOf: () => ({ tokens: 1, costUsd: 0, latencySeconds: 0.001 }) };
const hit = (chunkId: string, text = chunkId): Hit => ({ chunkId, sourceName: 'kdp-git', sourceKind: 'git', sourceVersionId: 'v', title: chunkId, text, score: 1, rank: 1, method: 'bm25', tokens: 10, sensitive: false });

describe('settingLookupHop', () => {
  it('searches the git sources in scope with a retriever that can read lookup-only passages', () => {
    const node = settingLookupHop({ ...hopInput, sources: ['kdp-git'], retrievers: [capability('rerank', false), capability('bm25', true)] });
    expect(node).toMatchObject({ kind: 'retrieve', id: 'retrieve-bm25-settings', method: 'bm25', sources: ['kdp-git'], lookupOnly: true, k: 3, inputs: [] });
    expect(node?.note).toContain('configured value');
  });

  it('is not planned without a git source in scope or a retriever that can search such passages', () => {
    expect(settingLookupHop({ ...hopInput, sources: [], retrievers: [capability('bm25', true)] })).toBeUndefined();
    expect(settingLookupHop({ ...hopInput, sources: ['kdp-git'], retrievers: [capability('fulltext', false)] })).toBeUndefined();
  });

  it('adds the setting words the goal describes to its query, shown as the node\'s expansion', () => {
    const node = settingLookupHop({ ...hopInput, sources: ['kdp-git'], terms: ['timeout'], retrievers: [capability('bm25', true)] });
    expect(node?.queryExpansion).toEqual(['timeout']);
    expect(settingLookupHop({ ...hopInput, sources: ['kdp-git'], terms: [], retrievers: [capability('bm25', true)] })).not.toHaveProperty('queryExpansion');
  });
});

describe('withSettingLookup', () => {
  const ranked = ['a', 'b', 'c', 'd'].map((id) => hit(id));

  it('adds the best part at the given rank, the general order otherwise unchanged', () => {
    const placed = withSettingLookup(ranked, [[hit('part-1'), hit('part-2')]], 3);
    expect(placed.map((entry) => entry.chunkId)).toEqual(['a', 'b', 'part-1', 'c', 'd']);
    expect(placed.map((entry) => entry.rank)).toEqual([1, 2, 3, 4, 5]);
    expect(placed.map((entry) => entry.lookupPlaced === true)).toEqual([false, false, true, false, false]);
  });

  it('appends it after a shorter list, keeps it where it already ranks higher, and changes nothing without a part', () => {
    expect(withSettingLookup(ranked.slice(0, 1), [[hit('part-1')]], 9).map((entry) => entry.chunkId)).toEqual(['a', 'part-1']);
    expect(withSettingLookup(ranked, [[hit('b')]], 3)).toBe(ranked);
    expect(withSettingLookup(ranked, [[]], 3)).toBe(ranked);
  });

  it('takes the rank from the context the plan made one item longer', () => {
    const graph = { nodes: [{ kind: 'assemble', id: 'assemble', inputs: [], finalK: 9, tokenBudget: 3000 }] } as unknown as ExecutionGraph;
    expect(settingLookupRank(graph)).toBe(9);
  });
});

describe('lookupParts', () => {
  const node = settingLookupHop({ ...hopInput, sources: ['kdp-git', 'demo-git'], retrievers: [capability('bm25', true)] })!;
  const query = { text: 'memory limit of eta-api', k: 3, sources: ['kdp-git', 'demo-git'], identifiers: [] };

  it('keeps only parts about what the goal names', async () => {
    const retriever = { searchLookupOnly: async () => [hit('checkout', 'checkout-api limits memory 512Mi'), hit('eta', 'eta-api limits memory 3Gi')] } as unknown as RetrieverPlugin;
    const parts = await lookupParts(retriever, node, query, () => ['eta-api']);
    expect(parts.map((part) => part.chunkId)).toEqual(['eta']);
  });

  it('fails the node when the retriever cannot search lookup-only passages', async () => {
    await expect(lookupParts({} as RetrieverPlugin, node, query, () => [])).rejects.toThrow(/cannot search lookup-only passages/);
  });
});
