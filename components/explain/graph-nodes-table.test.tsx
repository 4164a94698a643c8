import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { AnalyzeSection } from '@/server/runtime/explain/explain-types';
import type { ExecutionGraph } from '@/server/runtime/ir/graph';
import { GraphNodesTable } from './graph-nodes-table';

const estimate = { tokens: 100, costUsd: 0.001, latencySeconds: 0.5 };
const graph = {
  version: 1,
  nodes: [
    { id: 'retrieve', kind: 'retrieve', inputs: [], method: 'bm25', sources: ['docs'], sourceKinds: 'all', k: 8, estimate },
    { id: 'reason', kind: 'reason', inputs: ['retrieve'], strategy: 'single_shot', tier: 'priced', requireCitations: true, localOnly: false, maxOutputTokens: 600, estimate },
  ],
} as unknown as ExecutionGraph;
const exact = { factor: 1, direction: 'exact' } as const;
const misestimate = { tokens: exact, costUsd: exact, latencySeconds: exact };
const analyze: AnalyzeSection = {
  runId: 'r-1',
  status: 'failed',
  limits: { max_cost_usd: 0.002, max_latency_seconds: 5 },
  nodes: [
    { nodeId: 'retrieve', kind: 'retrieve', status: 'done', attempts: 1, estimate, actual: { ...estimate, costUsd: 0 }, misestimate, budget: { costUsd: 0, tokens: 0, elapsedSeconds: 0.2 } },
    { nodeId: 'reason', kind: 'reason', status: 'failed', attempts: 1, estimate },
  ],
  totals: { estimate, actual: { ...estimate, costUsd: 0 }, misestimate },
};

describe('GraphNodesTable under EXPLAIN ANALYZE', () => {
  it('shows the run budget used once each node finished, against the request limits', () => {
    const html = renderToStaticMarkup(<GraphNodesTable graph={graph} analyze={analyze} />);
    expect(html).toContain('run budget used');
    expect(html).toContain('<span class="budget-used"><span>cost $0.000000 of $0.002000 (0%)</span><span>tokens 0</span><span>time 0.200 s of 5.000 s (4%)</span></span>');
    // The refused node finished nothing: no figure of its own.
    expect(html).toMatch(/data-node-id="reason".*<td>—<\/td><\/tr>/);
  });

  it('has no budget column before a run', () => {
    expect(renderToStaticMarkup(<GraphNodesTable graph={graph} />)).not.toContain('run budget used');
  });
});
