/**
 * A reasoner mixture's calls as graph nodes (issue 15, point 2), after the plan's own
 * compress → assemble. Each model call is its own reason node with its own tier and estimate, so
 * EXPLAIN ANALYZE diffs every call and the scheduler runs the branches side by side:
 *
 *   plan_worker_critic:
 *     decompose ─→ retrieve-worker1 (sub-question 1) → compress-worker1 → assemble-worker1 → worker1 ┐
 *               ├→ … one chain per worker slot …                                              workerN ┤→ critic ┐
 *     assemble ──────────────────────────────────────────────────────────────────────────────────────────────────┴→ reason (merge)
 *   debate:
 *     assemble → solver1 … solverN → reason (judge)
 *
 * The fan-out is fixed when planning (the IR is immutable): a worker whose slot the decompose
 * node left empty makes no call. The decompose node reads only the goal, so it starts with the
 * first retrieval instead of after it.
 */
import type { MixtureShape } from '../contracts/reasoner';
import { createNode, type GraphNode, type NodeEstimate, type ReasonNode, type RetrieveNode } from '../ir/graph';
import type { CompressionMethod, SourceKind } from '../types';

export interface MixtureInput {
  readonly shape: MixtureShape;
  /** The plan's assemble node: the context the answering node (merge, judge) and the solvers read. */
  readonly assemble: string;
  /** The answer node's fields; every call of the mixture copies them with its own purpose and estimate. */
  readonly reason: Omit<ReasonNode, 'kind' | 'id' | 'inputs' | 'purpose' | 'estimate'>;
  /** One model call's share of the candidate's model totals. */
  readonly callEstimate: NodeEstimate;
  /** A debate's solver tiers by slot, when the planner routed them apart from the judge (absent: the answer node's tier). */
  readonly branchTiers?: readonly string[];
  /** A debate's solver estimates by slot, each priced on its own tier (absent: callEstimate each). */
  readonly branchEstimates?: readonly NodeEstimate[];
  /** A worker's retrieval: the first retrieval's method and scope, searching for its sub-question. */
  readonly retrieve: Pick<RetrieveNode, 'method' | 'sources' | 'sourceKinds' | 'k' | 'perSource' | 'retry' | 'timeoutMs'> & { readonly estimate: NodeEstimate };
  readonly compress: { readonly method: CompressionMethod; readonly estimate: NodeEstimate };
  readonly assembleFields: { readonly tokenBudget: number; readonly finalK: number; readonly coverKinds?: readonly SourceKind[]; readonly note?: string; readonly estimate: NodeEstimate };
}

export interface MixtureNodes {
  /** Every node before the answering one. */
  readonly nodes: readonly GraphNode[];
  /** The answering node's inputs besides the plan's assemble node (the critic and workers, or the solvers). */
  readonly answerInputs: readonly string[];
}

export function mixtureNodes(input: MixtureInput): MixtureNodes {
  const nodes: GraphNode[] = [];
  const call = (id: string, inputs: readonly string[], purpose: ReasonNode['purpose'], note: string, slot?: number, routed?: { readonly tier?: string; readonly estimate?: NodeEstimate }) =>
    createNode('reason', { ...input.reason, ...(routed?.tier ? { tier: routed.tier } : {}), id, inputs, purpose, ...(slot !== undefined ? { slot } : {}), estimate: routed?.estimate ?? input.callEstimate, note });
  const slots = Array.from({ length: input.shape.branches }, (_, slot) => slot);
  if (input.shape.layout === 'debate') {
    const solvers = slots.map((slot) => `solver${slot + 1}`);
    for (const slot of slots) {
      const tier = input.branchTiers?.[slot];
      const note = `solver ${slot + 1} of ${slots.length}: answers from the plan's context on its own${tier ? `, routed to tier ${tier}` : ''}`;
      nodes.push(call(solvers[slot], [input.assemble], 'solver', note, slot, { tier, estimate: input.branchEstimates?.[slot] }));
    }
    return { nodes, answerInputs: solvers };
  }
  nodes.push(call('decompose', [], 'decompose', `splits the goal into up to ${slots.length} sub-questions, one per worker`));
  const workers = slots.map((slot) => `worker${slot + 1}`);
  for (const slot of slots) {
    const suffix = `worker${slot + 1}`;
    nodes.push(createNode('retrieve', { ...input.retrieve, id: `retrieve-${suffix}`, inputs: ['decompose'], subQuestionOf: { node: 'decompose', slot }, note: `searches for sub-question ${slot + 1}; none, no search` }));
    nodes.push(createNode('compress', { id: `compress-${suffix}`, inputs: [`retrieve-${suffix}`], method: input.compress.method, estimate: input.compress.estimate }));
    nodes.push(createNode('assemble', { id: `assemble-${suffix}`, inputs: [`compress-${suffix}`], ...input.assembleFields }));
    nodes.push(call(suffix, [`assemble-${suffix}`, 'decompose'], 'worker', `answers sub-question ${slot + 1} from its own retrieval; idle when there is none`, slot));
  }
  nodes.push(call('critic', workers, 'critic', "checks each worker's answer against the evidence it cites"));
  return { nodes, answerInputs: ['critic', ...workers] };
}
