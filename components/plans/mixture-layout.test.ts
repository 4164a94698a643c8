import { describe, expect, it } from 'vitest';
import { createGraph, createNode, type GraphNode } from '@/server/runtime/ir/graph';
import { mixtureNodes } from '@/server/runtime/execution/mixture-nodes';
import { graphEdges, layoutGraph, NODE_HEIGHT, NODE_WIDTH } from './graph-layout';

const estimate = { tokens: 100, costUsd: 0, latencySeconds: 0.1 };
const reason = { strategy: 'plan_worker_critic' as const, tier: 'model', localOnly: false, requireCitations: true, maxOutputTokens: 300 };

/** A plan_worker_critic plan as the graph builder lays it out: the plan's path, the mixture, the merge. */
function mixturePlan(): ReturnType<typeof createGraph> {
  const mixed = mixtureNodes({
    shape: { layout: 'plan_worker_critic', branches: 3 },
    assemble: 'assemble',
    reason,
    callEstimate: estimate,
    retrieve: { method: 'bm25', sources: ['docs'], sourceKinds: 'all', k: 8, estimate },
    compress: { method: 'none', estimate },
    assembleFields: { tokenBudget: 4000, finalK: 8, estimate },
  });
  const nodes: GraphNode[] = [
    createNode('retrieve', { id: 'retrieve-bm25', inputs: [], method: 'bm25', sources: ['docs'], sourceKinds: 'all', k: 8, estimate }),
    createNode('compress', { id: 'compress', inputs: ['retrieve-bm25'], method: 'none', estimate }),
    createNode('assemble', { id: 'assemble', inputs: ['compress'], tokenBudget: 4000, finalK: 8, estimate }),
    ...mixed.nodes,
    createNode('reason', { ...reason, id: 'reason', inputs: ['assemble', ...mixed.answerInputs], estimate }),
  ];
  return createGraph(nodes);
}

describe('plan graph of a reasoner mixture', () => {
  it('draws every call as its own node: the workers side by side on one rank, the critic below them, the merge last, no overlaps', () => {
    const graph = mixturePlan();
    const positions = layoutGraph(graph);
    expect(positions.size).toBe(graph.nodes.length);
    const workers = ['worker1', 'worker2', 'worker3'].map((id) => positions.get(id)!);
    expect(new Set(workers.map((box) => box.y)).size).toBe(1);
    expect(positions.get('decompose')!.y).toBeLessThan(workers[0].y);
    expect(workers[0].y).toBeLessThan(positions.get('critic')!.y);
    expect(positions.get('critic')!.y).toBeLessThan(positions.get('reason')!.y);
    const boxes = [...positions.values()];
    for (const [index, box] of boxes.entries()) for (const other of boxes.slice(index + 1)) expect(Math.abs(box.x - other.x) < NODE_WIDTH && Math.abs(box.y - other.y) < NODE_HEIGHT).toBe(false);
    expect(graphEdges(graph).map((edge) => edge.id)).toContain('critic->reason');
  });
});
