/**
 * What an edited plan's reason nodes may read (edited-plan.ts): the wiring each purpose needs to
 * run, so an edit that would leave a worker without its sub-question or a critic without workers
 * is refused by field before anything runs, not failed halfway through a run.
 *
 *   answer     one assemble, plus bridge hops, or a mixture's workers and critic, or its solvers
 *   bridge     one assemble, plus earlier bridge hops
 *   decompose  nothing (it reads only the goal)            plan_worker_critic only
 *   worker     one assemble and one decompose; a slot       plan_worker_critic only
 *   critic     one or more workers                         plan_worker_critic only
 *   solver     one assemble; a slot                        debate only
 */
import { ContextRuntimeError } from '../errors';
import type { ExecutionGraph, ReasonNode } from '../ir/graph';
import { findNodesByRole } from '../ir/node-outputs';
import type { RuntimePlugins } from './runtime-plugins';

type Purpose = NonNullable<ReasonNode['purpose']>;

interface Wiring {
  /** How many assemble inputs: exactly this many. */
  readonly assembles: number;
  /** Purposes of the reason inputs it may read besides. */
  readonly reads: readonly Purpose[];
  /** At least one reason input of these purposes. */
  readonly needs?: readonly Purpose[];
  readonly slot?: true;
  /** The mixture layout its strategy must have. */
  readonly layout?: 'plan_worker_critic' | 'debate';
  readonly says: string;
}

const WIRING: Readonly<Record<Purpose, Wiring>> = {
  answer: { assembles: 1, reads: ['bridge', 'worker', 'critic', 'solver'], says: 'takes exactly one assemble node as input (and bridge hops, or a mixture\'s workers, critic or solvers)' },
  bridge: { assembles: 1, reads: ['bridge'], says: 'takes exactly one assemble node as input (and bridge hops)' },
  decompose: { assembles: 0, reads: [], layout: 'plan_worker_critic', says: 'a decompose node reads only the goal: it takes no inputs' },
  worker: { assembles: 1, reads: ['decompose'], needs: ['decompose'], slot: true, layout: 'plan_worker_critic', says: 'a worker takes exactly one assemble node (its own retrieval) and one decompose node' },
  critic: { assembles: 0, reads: ['worker'], needs: ['worker'], layout: 'plan_worker_critic', says: 'a critic takes one or more worker nodes and nothing else' },
  solver: { assembles: 1, reads: [], slot: true, layout: 'debate', says: 'a solver takes exactly one assemble node' },
};

const fail = (field: string, message: string) => new ContextRuntimeError('INVALID_GRAPH', message, { field });

export function checkReasonWiring(graph: ExecutionGraph, plugins: RuntimePlugins): void {
  const byId = new Map(graph.nodes.map((node) => [node.id, node]));
  for (const node of findNodesByRole(graph, 'reason')) {
    const field = `graph.nodes.${node.id}`;
    const purpose: Purpose = node.purpose ?? 'answer';
    const wiring = WIRING[purpose];
    const layout = plugins.reasoners.find((reasoner) => reasoner.strategy === node.strategy)?.mixture?.layout;
    if (wiring.layout && layout !== wiring.layout) throw fail(`${field}.strategy`, `node ${node.id}: purpose ${purpose} belongs to a ${wiring.layout} reasoner, not ${node.strategy}`);
    if (wiring.slot && node.slot === undefined) throw fail(`${field}.slot`, `node ${node.id}: a ${purpose} needs its slot (which sub-question or solver it is)`);
    const inputs = node.inputs.map((input) => byId.get(input));
    const assembles = inputs.filter((input) => input?.kind === 'assemble').length;
    const reads = inputs.filter((input): input is ReasonNode => input?.kind === 'reason');
    const allowed = (input: (typeof inputs)[number]) => input?.kind === 'assemble' || (input?.kind === 'reason' && wiring.reads.includes(input.purpose ?? 'answer'));
    const needed = !wiring.needs || reads.some((input) => wiring.needs!.includes(input.purpose ?? 'answer'));
    if (assembles !== wiring.assembles || !inputs.every(allowed) || !needed) throw fail(`${field}.inputs`, `node ${node.id}: ${wiring.says}`);
    if (purpose === 'worker' && reads.filter((input) => input.purpose === 'decompose').length !== 1) throw fail(`${field}.inputs`, `node ${node.id}: ${wiring.says}`);
  }
}
