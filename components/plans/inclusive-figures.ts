/**
 * Exclusive and inclusive figures for one node (PostgreSQL's EXPLAIN ANALYZE shows a node's time
 * with its children; pev2 splits it into exclusive and inclusive).
 *
 * In the Execution Graph, a node's "subtree" is what it consumes: its inputs, their inputs, and so
 * on. So:
 *   exclusive          = the node's own figure;
 *   inclusive          = the node + every distinct upstream node it depends on (each counted once,
 *                        even when reached along several paths) — the work its output embodies;
 *   critical path      = the node's latency + the slowest chain of inputs before it — the wall time
 *                        to its output if every independent branch ran in parallel.
 * Inclusive latency is therefore work (a sum), the critical path is elapsed time.
 */
import type { ExecutionGraph, NodeEstimate } from '@/server/runtime/ir/graph';

export interface InclusiveFigures {
  readonly exclusive: NodeEstimate;
  readonly inclusive: NodeEstimate;
  readonly criticalPathSeconds: number;
  /** Distinct upstream nodes counted into `inclusive`. */
  readonly upstream: number;
}

const ZERO: NodeEstimate = { tokens: 0, costUsd: 0, latencySeconds: 0 };

export function upstreamOf(graph: ExecutionGraph, nodeId: string): ReadonlySet<string> {
  const inputsOf = new Map(graph.nodes.map((node) => [node.id, node.inputs]));
  const seen = new Set<string>();
  const stack = [...(inputsOf.get(nodeId) ?? [])];
  while (stack.length > 0) {
    const id = stack.pop()!;
    if (seen.has(id) || id === nodeId) continue;
    seen.add(id);
    stack.push(...(inputsOf.get(id) ?? []));
  }
  return seen;
}

export function inclusiveFigures(graph: ExecutionGraph, figures: ReadonlyMap<string, NodeEstimate>, nodeId: string): InclusiveFigures {
  const exclusive = figures.get(nodeId) ?? ZERO;
  const upstream = upstreamOf(graph, nodeId);
  let inclusive = exclusive;
  for (const id of upstream) {
    const figure = figures.get(id) ?? ZERO;
    inclusive = { tokens: inclusive.tokens + figure.tokens, costUsd: inclusive.costUsd + figure.costUsd, latencySeconds: inclusive.latencySeconds + figure.latencySeconds };
  }
  // Longest path over latencies, memoised: the graph is a DAG (validated before it is stored).
  const inputsOf = new Map(graph.nodes.map((node) => [node.id, node.inputs]));
  const longest = new Map<string, number>();
  const pathTo = (id: string): number => {
    const known = longest.get(id);
    if (known !== undefined) return known;
    const before = Math.max(0, ...(inputsOf.get(id) ?? []).map(pathTo));
    const total = before + (figures.get(id)?.latencySeconds ?? 0);
    longest.set(id, total);
    return total;
  };
  return { exclusive, inclusive, criticalPathSeconds: pathTo(nodeId), upstream: upstream.size };
}
