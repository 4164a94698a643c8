/**
 * Automatic layout of the Execution Graph. Plans of up to DAGRE_MAX_NODES go through dagre (fewest
 * crossings) top to bottom — inputs at the top, the answer path below — because a typical plan is
 * seven or eight ranks deep and two or three nodes wide: drawn left to right (Dagster's way) the
 * demo plan was 2,100 px wide and fitting it into a 1,200 px card shrank 12 px node text to about
 * 7 px (issue 10); top to bottom it is ~550 px wide, so it fits at full size beside the node panel
 * and the page scrolls instead. Larger edited plans (wide fan-outs) go through the linear-time
 * layered layout left to right, as an overview. Every node has the same box so ranks line up.
 */
import dagre from '@dagrejs/dagre';
import { layeredLayout } from './layered-layout';

export const NODE_WIDTH = 248;
export const NODE_HEIGHT = 124;
const RANK_GAP = 72;
/** Between ranks drawn top to bottom: the edges are short and vertical, so less room is needed. */
const VERTICAL_RANK_GAP = 40;
const NODE_GAP = 24;
/** Around the whole drawing (dagre's margin). */
export const LAYOUT_MARGIN = 16;

/** dagre draws small plans best; past this, its 400+ ms would eat the 2 s render budget (see layered-layout.ts). */
export const DAGRE_MAX_NODES = 60;

export interface NodePosition {
  readonly x: number;
  readonly y: number;
}

export type LayoutDirection = 'TB' | 'LR';

/** What the layout needs of a node: its id and the ids it reads from (a plan's nodes, or a collapsed retry attempt). */
export interface LayoutNode {
  readonly id: string;
  readonly inputs: readonly string[];
}

export interface LayoutGraph {
  readonly nodes: readonly LayoutNode[];
}

/** Top to bottom for plans dagre lays out; left to right for the large ones. */
export function layoutDirection(graph: LayoutGraph): LayoutDirection {
  return graph.nodes.length > DAGRE_MAX_NODES ? 'LR' : 'TB';
}

/** Top-left positions (React Flow's origin) keyed by node id. */
export function layoutGraph(graph: LayoutGraph): ReadonlyMap<string, NodePosition> {
  if (layoutDirection(graph) === 'LR') return layeredLayout(graph, { width: NODE_WIDTH, height: NODE_HEIGHT, rankGap: RANK_GAP, nodeGap: NODE_GAP });
  const layout = new dagre.graphlib.Graph();
  layout.setGraph({ rankdir: 'TB', nodesep: NODE_GAP, ranksep: VERTICAL_RANK_GAP, marginx: LAYOUT_MARGIN, marginy: LAYOUT_MARGIN });
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

/** The drawing's extent (nodes plus the margin), for sizing the canvas to the plan. */
export function layoutExtent(positions: ReadonlyMap<string, NodePosition>): { readonly width: number; readonly height: number } {
  let width = 0;
  let height = 0;
  for (const { x, y } of positions.values()) {
    width = Math.max(width, x + NODE_WIDTH);
    height = Math.max(height, y + NODE_HEIGHT);
  }
  return { width: width + LAYOUT_MARGIN, height: height + LAYOUT_MARGIN };
}

/** One edge per input; the id is stable so React Flow can diff re-renders. */
export function graphEdges(graph: LayoutGraph): readonly { readonly id: string; readonly source: string; readonly target: string }[] {
  return graph.nodes.flatMap((node) => node.inputs.map((input) => ({ id: `${input}->${node.id}`, source: input, target: node.id })));
}
