import { ContextRuntimeError } from '../errors';
import { createGraph, createNode, GRAPH_VERSION, type ExecutionGraph, type GraphNode } from './graph';
import { validateGraph } from './validate-graph';

/** Canonical JSON: keys sorted, so equal graphs serialise to equal strings (the plan hash relies on it). */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value ?? null);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, entry]) => entry !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([key, entry]) => `${JSON.stringify(key)}:${canonicalJson(entry)}`).join(',')}}`;
}

export function graphToJson(graph: ExecutionGraph): string {
  return canonicalJson(graph);
}

/** Parses and validates; a malformed document is an INVALID_GRAPH error, never a half-built graph. */
export function graphFromJson(json: string | unknown): ExecutionGraph {
  let raw: unknown;
  try {
    raw = typeof json === 'string' ? JSON.parse(json) : json;
  } catch (error) {
    throw new ContextRuntimeError('INVALID_GRAPH', `execution graph is not valid JSON: ${(error as Error).message}`, { field: 'graph' });
  }
  const document = raw as { version?: unknown; nodes?: unknown };
  if (!document || document.version !== GRAPH_VERSION || !Array.isArray(document.nodes)) {
    throw new ContextRuntimeError('INVALID_GRAPH', `execution graph must be {version: ${GRAPH_VERSION}, nodes: [...]}`, { field: 'graph' });
  }
  const nodes = document.nodes.map((node: GraphNode) => {
    if (!node || typeof node.id !== 'string' || !Array.isArray(node.inputs)) {
      throw new ContextRuntimeError('INVALID_GRAPH', 'every node needs a string id and an inputs array', { field: 'graph.nodes' });
    }
    const { kind, ...fields } = node;
    return createNode(kind, fields as never);
  });
  const graph = createGraph(nodes);
  validateGraph(graph);
  return graph;
}
