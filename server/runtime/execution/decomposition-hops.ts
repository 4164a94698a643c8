/**
 * The hops of a decomposing reasoner as graph nodes (issue 15, point 3), inserted between the first
 * retrieval and the answer's compress → assemble → reason:
 *
 *   evidence → compress-hop1 → assemble-hop1 → reason-hop1 (bridge) → retrieve-hop1 (bridgeFrom) ┐
 *   evidence ───────────────────────────────────────────────────────────────────────────────→ fuse-hop1 → …
 *
 * The fuse keeps the first retrieval's evidence beside the second's (IRCoT answers from the union
 * of every hop's paragraphs), so a bridge that finds nothing costs the answer nothing.
 */
import { createNode, type GraphNode, type NodeEstimate, type ReasonNode, type RetrieveNode } from '../ir/graph';

/** RRF constant of the hop fusion: rank position across two lists of one retriever (as the graph builder's own fuse). */
const HOP_RRF_K = 60;

export interface HopInput {
  /** The node whose output is the first retrieval's evidence (a retrieve, fuse or rerank). */
  readonly evidence: string;
  readonly hops: number;
  /** The first retrieval's method and scope, reused by every bridge retrieval. */
  readonly retrieve: Pick<RetrieveNode, 'method' | 'sources' | 'sourceKinds' | 'k' | 'retry' | 'timeoutMs'> & { readonly estimate: NodeEstimate };
  readonly compress: Pick<GraphNode & { kind: 'compress' }, 'method'> & { readonly estimate: NodeEstimate };
  readonly assemble: { readonly tokenBudget: number; readonly finalK: number; readonly estimate: NodeEstimate };
  /** The answer node's fields; a bridge hop is the same call with purpose `bridge` and its share of the estimate. */
  readonly reason: Omit<ReasonNode, 'kind' | 'id' | 'inputs' | 'purpose'>;
  readonly fuseEstimate: NodeEstimate;
}

/** `bridges`: the bridge reason nodes, which the answering reason node also reads (their names go into its question). */
export function decompositionHops(input: HopInput): { readonly nodes: readonly GraphNode[]; readonly last: string; readonly bridges: readonly string[] } {
  const nodes: GraphNode[] = [];
  let last = input.evidence;
  for (let hop = 1; hop <= input.hops; hop++) {
    const suffix = `hop${hop}`;
    nodes.push(createNode('compress', { id: `compress-${suffix}`, inputs: [last], method: input.compress.method, estimate: input.compress.estimate }));
    nodes.push(createNode('assemble', { id: `assemble-${suffix}`, inputs: [`compress-${suffix}`], tokenBudget: input.assemble.tokenBudget, finalK: input.assemble.finalK, estimate: input.assemble.estimate }));
    nodes.push(createNode('reason', { ...input.reason, id: `reason-${suffix}`, inputs: [`assemble-${suffix}`], purpose: 'bridge', note: `hop ${hop}: reads the evidence so far and names the bridge entity to retrieve next` }));
    nodes.push(createNode('retrieve', { ...input.retrieve, id: `retrieve-${suffix}`, inputs: [`reason-${suffix}`], bridgeFrom: `reason-${suffix}`, note: `hop ${hop}: the goal searched again with the bridge entity` }));
    nodes.push(createNode('fuse', { id: `fuse-${suffix}`, inputs: [last, `retrieve-${suffix}`], strategy: 'rrf', rrfK: HOP_RRF_K, k: input.retrieve.k, estimate: input.fuseEstimate }));
    last = `fuse-${suffix}`;
  }
  return { nodes, last, bridges: nodes.filter((node) => node.kind === 'reason').map((node) => node.id) };
}
