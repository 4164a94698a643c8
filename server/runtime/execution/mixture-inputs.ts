/**
 * What a reasoner mixture's node reads from the nodes before it (execution/mixture-nodes.ts), by
 * their kind and purpose, never by id: a worker's sub-question from the decompose node, and for the
 * critic, merge or judge the workers' or solvers' answers with the critic's verdicts.
 */
import type { Finding } from '../contracts/reasoner';
import { ContextRuntimeError } from '../errors';
import type { ExecutionGraph, NodeOfKind, ReasonNode } from '../ir/graph';
import { typedInputs, type TypedNodeOutput } from '../ir/node-outputs';

type ReasonInput = Extract<TypedNodeOutput, { kind: 'reason' }>;

const reasonInputs = (typed: readonly TypedNodeOutput[], purpose: ReasonNode['purpose']): ReasonInput[] =>
  typed.filter((input): input is ReasonInput => input.kind === 'reason' && input.node.purpose === purpose);

/** Sub-question `slot` of the decompose node a worker's retrieval names; '' when the decompose node gave fewer. */
export function subQuestionFor(graph: ExecutionGraph | undefined, node: NodeOfKind<'retrieve'>, of: { readonly node: string; readonly slot: number }, inputs: ReadonlyMap<string, unknown>): string {
  if (!graph) throw new ContextRuntimeError('NODE_FAILED', `retrieve node ${node.id}: the executor was not given the graph`);
  const plan = typedInputs(graph, node, inputs).find((input) => input.node.id === of.node);
  if (plan?.kind !== 'reason') throw new ContextRuntimeError('NODE_FAILED', `retrieve node ${node.id}: subQuestionOf ${of.node} is not a completed reason input`);
  return plan.output.subQuestions?.[of.slot] ?? '';
}

export interface MixtureReads {
  /** A worker's sub-question ('' when its slot is empty); absent for every other node. */
  readonly question?: string;
  /** The answers the critic, merge or judge node reads; absent when the node reads none. */
  readonly findings?: readonly Finding[];
}

export function mixtureInputs(node: ReasonNode, typed: readonly TypedNodeOutput[]): MixtureReads {
  if (node.purpose === 'worker') {
    const plan = reasonInputs(typed, 'decompose').at(-1);
    if (!plan) throw new ContextRuntimeError('NODE_FAILED', `reason node ${node.id}: a worker needs a completed decompose input`);
    return { question: plan.output.subQuestions?.[node.slot ?? 0] ?? '' };
  }
  const answered = [...reasonInputs(typed, 'worker'), ...reasonInputs(typed, 'solver')].filter((input) => !input.output.idle);
  if (answered.length === 0) return {};
  const verdicts = new Map((reasonInputs(typed, 'critic').at(-1)?.output.critique ?? []).map((verdict) => [verdict.slot, verdict]));
  const findings = answered.map((input, index): Finding => {
    const slot = input.node.slot ?? index;
    const verdict = verdicts.get(slot);
    return {
      slot,
      question: input.output.question ?? '',
      answer: input.output.answer,
      citations: input.output.citations,
      ...(verdict?.grounded !== undefined ? { grounded: verdict.grounded } : {}),
      ...(verdict?.critique ? { critique: verdict.critique } : {}),
    };
  });
  return { findings };
}
