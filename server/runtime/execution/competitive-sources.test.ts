import { describe, expect, it } from 'vitest';
import { RETRIEVER_CONTRACT, type RetrieverCapabilities, type RetrieverPlugin } from '../contracts/retriever';
import type { Hit, SourceKind } from '../types';
import { keepCompetitiveSources } from './competitive-sources';
import { stratifiedRetrieveIds } from './testing/stratified-retrieve';

const hit = (chunkId: string, sourceName: string, sourceKind: SourceKind, score: number, rank = 1): Hit => ({
  chunkId, sourceName, sourceKind, sourceVersionId: `${sourceName}-1`, title: `${sourceName} ${chunkId}`, text: `${chunkId} text`, score, rank, method: 'bm25', tokens: 30,
});

// A label-printing team's sources beside a shop's: the question is the team's; the shop's leaders share a word with it.
const BY_SOURCE: Record<string, readonly Hit[]> = {
  'label-git': [hit('commit-a', 'label-git', 'git', 12.2), hit('commit-b', 'label-git', 'git', 9.1, 2)],
  'label-docs': [hit('runbook', 'label-docs', 'docs', 10.8)],
  'shop-events': [hit('oom', 'shop-events', 'events', 2.1)],
  'shop-metrics': [hit('cpu', 'shop-metrics', 'metrics', 1.4)],
};

describe('sources whose best hit is far below the best source', () => {
  it('leave a per-source interleaving when scores share one scale', () => {
    const kept = keepCompetitiveSources(Object.values(BY_SOURCE));
    expect(kept.map((list) => list.map((entry) => entry.chunkId))).toEqual([['commit-a', 'commit-b'], ['runbook'], [], []]);
  });

  it('stay when every source is weak alike, or nothing scored', () => {
    const weak = [[hit('a', 's1', 'docs', 1.0)], [hit('b', 's2', 'logs', 0.5)]];
    expect(keepCompetitiveSources(weak).map((list) => list.length)).toEqual([1, 1]);
    expect(keepCompetitiveSources([[], [hit('z', 's3', 'docs', 0)]]).map((list) => list.length)).toEqual([0, 1]);
  });
});

const retrieverWith = (capabilities: Partial<RetrieverCapabilities>): RetrieverPlugin => ({
  contract: RETRIEVER_CONTRACT,
  method: 'bm25',
  capabilities: () => ({ method: 'bm25', available: true, latencyMs: 5, requires: [], recallPrior: {}, ...capabilities }),
  search: async (query) => query.sources.flatMap((source) => BY_SOURCE[source] ?? []),
});

const run = (retriever: RetrieverPlugin) => stratifiedRetrieveIds(retriever, 'Which commit changed the label printer timeout, and who wrote it?', Object.keys(BY_SOURCE), 10);

describe('a stratified retrieve node', () => {
  it("leaves out the shop's weak leaders when its retriever scores every source on one scale", async () => {
    expect(await run(retrieverWith({ sharedScoreScale: true }))).toEqual(['commit-a', 'runbook', 'commit-b']);
  });

  it("keeps every source's leader when scores are comparable only within a source", async () => {
    expect((await run(retrieverWith({}))).sort()).toEqual(['commit-a', 'commit-b', 'cpu', 'oom', 'runbook']);
  });
});
