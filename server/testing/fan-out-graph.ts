/**
 * Builds a large but executable edit of a planned Execution Graph: every (source × method × query
 * variant) gets its own retrieve node, each source's retrievals fuse first, the per-source fusions
 * fuse at the root, and the planner's own compress → assemble → reason → verify (→ approve) tail is
 * kept. It is what an operator does to see whether stratifying retrieval harder pays off, and it is
 * how tests and the browser test get a real run with a graph of a chosen size (e.g. 200 nodes).
 */
import type { ExecutionGraph, GraphNode } from '../runtime/ir/graph';

/** Query variants: the goal as asked, its entities only, and the goal with incident vocabulary. */
const VARIANTS: readonly { readonly focus: 'goal' | 'entities'; readonly expansion: readonly string[] }[] = [
  { focus: 'goal', expansion: [] },
  { focus: 'entities', expansion: [] },
  { focus: 'goal', expansion: ['error'] },
  { focus: 'entities', expansion: ['failed'] },
  { focus: 'goal', expansion: ['deploy'] },
  { focus: 'entities', expansion: ['rollback'] },
  { focus: 'goal', expansion: ['memory'] },
  { focus: 'entities', expansion: ['commit'] },
];

const TAIL_KINDS = new Set(['compress', 'assemble', 'reason', 'verify', 'approve']);

/**
 * The plan's first attempt: without a verification gate and the retry attempts behind it (their
 * nodes read the gate, directly or through each other), an approval then waiting only for what is left.
 */
export function firstAttemptOf(planned: ExecutionGraph): GraphNode[] {
  const behind = new Set(planned.nodes.filter((node) => node.kind === 'branch').map((node) => node.id));
  for (const node of planned.nodes) if (node.inputs.some((input) => behind.has(input))) behind.add(node.id);
  return planned.nodes.filter((node) => !behind.has(node.id)).map((node) => (node.kind === 'approve' ? { ...node, inputs: node.inputs.filter((input) => !behind.has(input)) } : node));
}

/** `nodes` is the size of the returned graph; it must leave room for at least one retrieval per source. */
export function fanOutGraph(planned: ExecutionGraph, nodes: number): { version: 1; nodes: GraphNode[] } {
  const retrieves = planned.nodes.filter((node) => node.kind === 'retrieve');
  const sources = [...new Set(retrieves.flatMap((node) => node.sources))].sort();
  const methods = [...new Set(retrieves.map((node) => node.method))].sort();
  // The first attempt's tail: a fan-out replaces the retrieval the retry attempts would broaden.
  const tail = firstAttemptOf(planned).filter((node) => TAIL_KINDS.has(node.kind));
  const retrieveCount = nodes - tail.length - 1 - sources.length;
  if (sources.length === 0 || retrieveCount < sources.length) throw new Error(`cannot fan ${sources.length} sources out into ${nodes} nodes`);
  const k = Math.max(3, retrieves[0]?.k ?? 10);
  const bySource = new Map<string, string[]>(sources.map((source) => [source, []]));
  const out: GraphNode[] = [];
  for (let index = 0; index < retrieveCount; index += 1) {
    const source = sources[index % sources.length];
    const round = Math.floor(index / sources.length);
    const method = methods[round % methods.length];
    const variant = VARIANTS[Math.floor(round / methods.length) % VARIANTS.length];
    const id = `retrieve-${method}-${source}-${round}`;
    bySource.get(source)!.push(id);
    out.push({ kind: 'retrieve', id, inputs: [], method, sources: [source], sourceKinds: 'all', k, focus: variant.focus, queryExpansion: variant.expansion.length > 0 ? variant.expansion : undefined });
  }
  for (const source of sources) out.push({ kind: 'fuse', id: `fuse-${source}`, inputs: bySource.get(source)!, strategy: 'rrf', rrfK: 60, k });
  out.push({ kind: 'fuse', id: 'fuse', inputs: sources.map((source) => `fuse-${source}`), strategy: 'rrf', rrfK: 10, k: k * 2 });
  for (const node of tail) out.push(node.kind === 'compress' ? { ...node, inputs: ['fuse'] } : node);
  return { version: 1, nodes: out.map(({ estimate: _estimate, ...node }) => node as GraphNode) };
}
