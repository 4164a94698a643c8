import { describe, expect, it } from 'vitest';
import type { Hit, SourceKind } from '../../runtime/types';
import { keepFirstStageOrderWithinLogs, type RerankedEntry } from './log-window-order';

function hit(id: string, sourceKind: SourceKind, title: string, locator?: string): Hit {
  return { chunkId: id, sourceName: sourceKind === 'logs' ? 'ops-logs' : 'ops-docs', sourceKind, sourceVersionId: 'v1', title, text: id, score: 0, rank: 0, method: 'bm25', tokens: 10, ...(locator ? { locator } : {}) };
}

const window = (id: string, file: string, lines: string) => hit(id, 'logs', `${file} ${lines}`, lines);

describe('keepFirstStageOrderWithinLogs', () => {
  it("puts one log file's windows back in first-stage order, in the places the reranker gave the file", () => {
    // Reranked: a runbook first, then the broker log's windows in the reranker's order, the asked one last.
    const head: RerankedEntry[] = [
      { hit: hit('runbook', 'docs', 'runbook-broker.md'), score: 9, order: 3 },
      { hit: window('w-stats', 'broker.log', 'lines 5–8'), score: 8, order: 2 },
      { hit: hit('postmortem', 'docs', 'postmortem.md'), score: 7, order: 0 },
      { hit: window('w-config', 'broker.log', 'lines 93–96'), score: 6, order: 1 },
    ];
    keepFirstStageOrderWithinLogs(head);
    expect(head.map((entry) => entry.hit.chunkId)).toEqual(['runbook', 'w-config', 'postmortem', 'w-stats']);
    // Scores stay with the places, so the list is still sorted by score.
    expect(head.map((entry) => entry.score)).toEqual([9, 8, 7, 6]);
  });

  it('leaves the order between two log files, and prose, to the reranker', () => {
    const head: RerankedEntry[] = [
      { hit: window('api-1', 'api.log', 'lines 1–3'), score: 5, order: 2 },
      { hit: window('db-1', 'db.log', 'lines 9–12'), score: 4, order: 0 },
      { hit: hit('doc-b', 'docs', 'b.md'), score: 3, order: 4 },
      { hit: hit('doc-a', 'docs', 'a.md'), score: 2, order: 1 },
      { hit: window('api-2', 'api.log', 'lines 40–44'), score: 1, order: 3 },
    ];
    keepFirstStageOrderWithinLogs(head);
    expect(head.map((entry) => entry.hit.chunkId)).toEqual(['api-1', 'db-1', 'doc-b', 'doc-a', 'api-2']);
  });
});
