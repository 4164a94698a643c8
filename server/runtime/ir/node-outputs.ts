/**
 * What each node kind outputs, and how the facade finds nodes by role instead of by a fixed id
 * (architecture §5.11): a plan may hold several reason nodes (a decomposition's hops, workers,
 * critics), so "the answer" is the reason node whose purpose is to answer, and its context is the
 * assemble node it reads — whatever the planner or an edit named them.
 */
import type { CompressionLineage, CompressionOmission } from '../contracts/compression';
import type { ReasonResult } from '../contracts/reasoner';
import type { TimeWindow } from '../contracts/retriever';
import type { VerificationResult } from '../contracts/verifier';
import type { ContextItem, Hit } from '../types';
import { answersGoal } from './graph';
import type { AssembleNode, CompressNode, ExecutionGraph, GraphNode, NodeKind, NodeOfKind, ReasonNode, VerifyNode } from './graph';

/** One source's search inside a stratified retrieval, timed so the trace can show which source was slow. */
export interface SourceSearch { readonly source: string; readonly hits: number; readonly startedAtMs: number; readonly latencyMs: number }

export interface RetrievedOutput {
  readonly hits: readonly Hit[];
  readonly expansion?: readonly string[];
  readonly searches?: readonly SourceSearch[];
  /** A setting lookup's commits that set an asked setting (execution/setting-lookup.ts settingChanges), best first. */
  readonly settingChanges?: readonly Hit[];
  /** The windows an anchored stamped search was narrowed to at run time (execution/event-anchored-window.ts). */
  readonly narrowedTo?: readonly TimeWindow[];
}

export interface CompressedOutput {
  readonly items: readonly ContextItem[];
  readonly tokensBefore: number;
  readonly tokensAfter: number;
  readonly omitted: readonly CompressionOmission[];
  /** Derived from which chunks and source versions, refreshed on which versions (absent on runs stored before it existed). */
  readonly lineage?: CompressionLineage;
  /** The stored compressed context (Knowledge Layer summary node) this output was served from, when reused rather than recomputed. */
  readonly servedFrom?: string;
  /** The summary node this compression was kept as, for reuse while its sources are current. */
  readonly storedAs?: string;
}

export interface AssembledContext {
  readonly items: readonly ContextItem[];
  readonly tokens: number;
  readonly bySource: readonly { readonly source: string; readonly tokens: number; readonly items: number }[];
  readonly dropped: readonly { readonly chunkId: string; readonly source: string; readonly tokens: number; readonly why: string }[];
  readonly compressedTokensRemoved: number;
}

export interface BranchOutput { readonly condition: string; readonly value: boolean }

/** The output type of every node kind (approve nodes are decided, never executed). */
export interface NodeOutputs {
  readonly retrieve: RetrievedOutput;
  readonly fuse: RetrievedOutput;
  readonly rerank: RetrievedOutput;
  readonly compress: CompressedOutput;
  readonly assemble: AssembledContext;
  readonly reason: ReasonResult;
  readonly verify: VerificationResult;
  readonly approve: never;
  readonly branch: BranchOutput;
  readonly merge: Readonly<Record<string, unknown>>;
}

/** A node with its output, discriminated by kind: narrow on `kind` and the output is typed. */
export type TypedNodeOutput = { [K in NodeKind]: { readonly kind: K; readonly node: NodeOfKind<K>; readonly output: NodeOutputs[K] } }[NodeKind];

/** Anything keyed by node id that holds outputs: the scheduler's outcomes, a run record's saved ones. */
type OutcomesById = ReadonlyMap<string, { readonly output: unknown }>;

/** Every node of one kind (its role in the plan), in graph order. */
export function findNodesByRole<K extends NodeKind>(graph: ExecutionGraph, kind: K): NodeOfKind<K>[] {
  return graph.nodes.filter((node): node is NodeOfKind<K> => node.kind === kind);
}

/**
 * The output of `node`. The one place outputs are typed: the executor of a node's kind wrote it
 * (node-executors.ts `satisfies` each kind's type), so reading it by the node's kind is sound.
 */
export function outputOf<K extends NodeKind>(outcomes: OutcomesById, node: NodeOfKind<K>): NodeOutputs[K] | undefined {
  return outcomes.get(node.id)?.output as NodeOutputs[K] | undefined;
}

/** A node's output tagged with the node's kind (same soundness argument as outputOf). */
export function typedOutput(node: GraphNode, output: unknown): TypedNodeOutput {
  return { kind: node.kind, node, output } as TypedNodeOutput;
}

/** A node's completed inputs, each tagged with its kind. */
export function typedInputs(graph: ExecutionGraph, node: GraphNode, inputs: ReadonlyMap<string, unknown>): TypedNodeOutput[] {
  const byId = new Map(graph.nodes.map((entry) => [entry.id, entry]));
  return node.inputs.flatMap((id) => {
    const input = byId.get(id);
    return input && inputs.has(id) ? [typedOutput(input, inputs.get(id))] : [];
  });
}

/**
 * The reason node whose output is the run's answer: the last one that answers (a bridge hop feeds a
 * retrieval, a mixture's worker, solver or critic feeds the node that answers, not the user). With outcomes, the last answering node that ran: a plan gated on
 * verification holds one answering node per attempt, and the attempts a passing gate skipped never ran.
 */
export function answerNodeOf(graph: ExecutionGraph, outcomes?: OutcomesById): ReasonNode | undefined {
  const answers = findNodesByRole(graph, 'reason').filter(answersGoal);
  if (!outcomes) return answers.at(-1);
  return answers.filter((node) => outcomes.has(node.id)).at(-1) ?? answers[0];
}

/** The verdict on `answer`: the last verify node reading it (a chain of checks folds the earlier verdicts into the last). */
export function verdictNodeOf(graph: ExecutionGraph, answer: ReasonNode | undefined): VerifyNode | undefined {
  return answer ? findNodesByRole(graph, 'verify').filter((node) => node.inputs.includes(answer.id)).at(-1) : undefined;
}

/** The assemble node `reason` reads its context from. */
export function contextNodeOf(graph: ExecutionGraph, reason: ReasonNode | undefined): AssembleNode | undefined {
  return reason ? findNodesByRole(graph, 'assemble').find((node) => reason.inputs.includes(node.id)) : undefined;
}

/** The compress node an assemble node packs. */
export function compressNodeOf(graph: ExecutionGraph, assemble: AssembleNode | undefined): CompressNode | undefined {
  return assemble ? findNodesByRole(graph, 'compress').find((node) => assemble.inputs.includes(node.id)) : undefined;
}

/** What a run answered, from what: the answer node's output, its context and compression, and the verifier's verdict on it. */
export interface AnswerOutputs {
  readonly reasoned?: ReasonResult;
  readonly context?: AssembledContext;
  readonly compressed?: CompressedOutput;
  readonly verification?: VerificationResult;
}

export function answerOutputsOf(graph: ExecutionGraph, outcomes: OutcomesById): AnswerOutputs {
  const answer = answerNodeOf(graph, outcomes);
  const assemble = contextNodeOf(graph, answer);
  const compress = compressNodeOf(graph, assemble);
  // The last verdict that was reached: a judge skipped because the cheap checks failed leaves theirs.
  const verify = findNodesByRole(graph, 'verify').filter((node) => answer !== undefined && node.inputs.includes(answer.id) && outcomes.has(node.id)).at(-1);
  return {
    reasoned: answer && outputOf(outcomes, answer),
    context: assemble && outputOf(outcomes, assemble),
    compressed: compress && outputOf(outcomes, compress),
    verification: verify && outputOf(outcomes, verify),
  };
}
