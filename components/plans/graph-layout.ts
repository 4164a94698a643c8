/**
 * Automatic layout of the Execution Graph, inputs to the left and the answer path to the right, as
 * Dagster draws asset lineage. Plans of up to DAGRE_MAX_NODES go through dagre (fewest crossings);
 * larger edited plans through the linear-time layered layout. Every node has the same box so
 * ranks line up.
 */
import dagre from '@dagrejs/dagre';
import type { ExecutionGraph } from '@/server/runtime/ir/graph';
import { layeredLayout } from './layered-layout';

export const NODE_WIDTH = 236;
export const NODE_HEIGHT = 118;
const RANK_GAP = 72;
const NODE_GAP = 24;

/** dagre draws small plans best; past this, its 400+ ms would eat the 2 s render budget (see layered-layout.ts). */
export const DAGRE_MAX_NODES = 60;

export interface NodePosition {
  readonly x: number;
  readonly y: number;
}

/** Top-left positions (React Flow's origin) keyed by node id. */
export function layoutGraph(graph: ExecutionGraph): ReadonlyMap<string, NodePosition> {
  if (graph.nodes.length > DAGRE_MAX_NODES) return layeredLayout(graph, { width: NODE_WIDTH, height: NODE_HEIGHT, rankGap: RANK_GAP, nodeGap: NODE_GAP });
  const layout = new dagre.graphlib.Graph();
  layout.setGraph({ rankdir: 'LR', nodesep: NODE_GAP, ranksep: RANK_GAP, marginx: 16, marginy: 16 });
  layout.setDefaultEdgeLabel(() => ({}));
  for (const node of graph.nodes) layout.setNode(node.id, { width: NODE_WIDTH, height: NODE_HEIGHT });
  for (const node of graph.nodes) for (const input of node.inputs) layout.setEdge(input, node.id);
  dagre.layout(layout);
  const positions = new Map<string, NodePosition>();
  for (const node of graph.nodes) {
    const placed = layout.node(node.id);
    // dagre reports centres; React Flow positions a node by its top-left corner.
    positions.set(node.id, { x: placed.x - NODE_WIDTH / 2, y: placed.y - NODE_HEIGHT / 2 });
  }
  return positions;
}

/** One edge per input; the id is stable so React Flow can diff re-renders. */
export function graphEdges(graph: ExecutionGraph): readonly { readonly id: string; readonly source: string; readonly target: string }[] {
  return graph.nodes.flatMap((node) => node.inputs.map((input) => ({ id: `${input}->${node.id}`, source: input, target: node.id })));
}
