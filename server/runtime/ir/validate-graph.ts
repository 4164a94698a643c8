import { ContextRuntimeError } from '../errors';
import { NODE_KINDS, type ExecutionGraph } from './graph';

/** A graph defect, naming the node so an operator (or a plugin author) can find it. */
export class InvalidGraphError extends ContextRuntimeError {
  constructor(problem: 'cycle' | 'dangling_edge' | 'unknown_kind' | 'duplicate_id' | 'bad_branch' | 'bad_compensation' | 'empty', nodeId: string, message: string) {
    super('INVALID_GRAPH', message, { field: `graph.nodes.${nodeId}`, details: { problem, nodeId } });
  }
}

/**
 * Checks the structural invariants the scheduler relies on: unique ids, known kinds,
 * every edge lands on a node, branch targets are successors, no cycles (loops are node
 * annotations, not back edges). Throws InvalidGraphError on the first defect.
 */
export function validateGraph(graph: ExecutionGraph): void {
  if (graph.nodes.length === 0) throw new InvalidGraphError('empty', '(graph)', 'execution graph has no nodes');
  const ids = new Set<string>();
  for (const node of graph.nodes) {
    if (ids.has(node.id)) throw new InvalidGraphError('duplicate_id', node.id, `node ${node.id}: duplicate id`);
    ids.add(node.id);
    if (!(NODE_KINDS as readonly string[]).includes(node.kind)) {
      throw new InvalidGraphError('unknown_kind', node.id, `node ${node.id}: unknown kind "${String(node.kind)}" (expected one of ${NODE_KINDS.join(', ')})`);
    }
  }
  for (const node of graph.nodes) {
    for (const input of node.inputs) {
      if (!ids.has(input)) throw new InvalidGraphError('dangling_edge', node.id, `node ${node.id}: input "${input}" is not a node of this graph`);
    }
    if (node.compensation !== undefined && !ids.has(node.compensation)) {
      throw new InvalidGraphError('bad_compensation', node.id, `node ${node.id}: compensation "${node.compensation}" is not a node of this graph`);
    }
    if (node.kind === 'branch') {
      for (const target of [...node.whenTrue, ...node.whenFalse]) {
        const targetNode = graph.nodes.find((candidate) => candidate.id === target);
        if (!targetNode || !targetNode.inputs.includes(node.id)) {
          throw new InvalidGraphError('bad_branch', node.id, `node ${node.id}: branch target "${target}" is not a successor of the branch`);
        }
      }
    }
  }
  findCycle(graph);
}

/** Depth-first search with colours; reports a node on the cycle. */
function findCycle(graph: ExecutionGraph): void {
  const inputsOf = new Map(graph.nodes.map((node) => [node.id, node.inputs]));
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (id: string, path: string[]): void => {
    const seen = state.get(id);
    if (seen === 'done') return;
    if (seen === 'visiting') {
      const cycle = [...path.slice(path.indexOf(id)), id];
      throw new InvalidGraphError('cycle', id, `node ${id}: cycle ${cycle.join(' → ')}`);
    }
    state.set(id, 'visiting');
    for (const input of inputsOf.get(id) ?? []) visit(input, [...path, id]);
    state.set(id, 'done');
  };
  for (const node of graph.nodes) visit(node.id, []);
}
