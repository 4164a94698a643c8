/**
 * The Execution Graph: the IR between the planner (what) and the scheduler (when/where).
 * Nodes are kind-tagged, frozen plain objects (kysely operation-node style): build them with
 * `createNode`, test them with `isNode`, rewrite with `withNode` which returns a copy.
 * Edges are carried by each node's `inputs`; compensation links point at the node that undoes it.
 */
import type { ReasonPurpose } from '../contracts/reasoner';
import type { TimeWindow } from '../contracts/retriever';
import type { CompressionMethod, ReasoningStrategy, SourceKind, VerificationMethod } from '../types';

export const GRAPH_VERSION = 1 as const;

export const NODE_KINDS = ['retrieve', 'fuse', 'rerank', 'compress', 'assemble', 'reason', 'verify', 'approve', 'branch', 'merge'] as const;
export type NodeKind = (typeof NODE_KINDS)[number];

/** Retry with exponential backoff: attempt n waits backoffMs × 2^(n-1). */
export interface RetryPolicy {
  readonly maxAttempts: number;
  readonly backoffMs: number;
}

/** Re-run the node until `until` holds or maxIterations (e.g. re-retrieve until verification passes). */
export interface LoopPolicy {
  readonly maxIterations: number;
  readonly until: string;
}

/** What the planner expects this node to cost; EXPLAIN ANALYZE diffs actuals against it. */
export interface NodeEstimate {
  /** The reason node: model tokens. Other nodes: the evidence they pass on, which no model is billed for yet. */
  readonly tokens: number;
  readonly costUsd: number;
  readonly latencySeconds: number;
  /** Model tokens a node other than reason spends (an LLM reranker's calls); absent when none. */
  readonly modelTokens?: number;
}

/** What a node spent on models, in tokens: a run's and a plan's token totals sum this over nodes. */
export const modelTokensOf = (kind: string, figures: Pick<NodeEstimate, 'tokens' | 'modelTokens'>): number => (kind === 'reason' ? figures.tokens : (figures.modelTokens ?? 0));

interface NodeBase {
  readonly id: string;
  readonly inputs: readonly string[];
  readonly retry?: RetryPolicy;
  readonly loop?: LoopPolicy;
  /** Id of the node that undoes this one's effects (rollback). */
  readonly compensation?: string;
  readonly timeoutMs?: number;
  readonly estimate?: NodeEstimate;
  /** Why the planner put the node here, for EXPLAIN. */
  readonly note?: string;
}

export interface RetrieveNode extends NodeBase {
  readonly kind: 'retrieve';
  readonly method: string;
  readonly sources: readonly string[];
  readonly sourceKinds: readonly SourceKind[] | 'all';
  readonly k: number;
  /** Search each source separately and fuse, so every source kind the rules require is represented. */
  readonly perSource?: boolean;
  /** What the query starts from: the whole goal (default) or only its entities and identifiers. */
  readonly focus?: 'goal' | 'entities';
  /** Fixed terms added to the query for this retrieval (shown in EXPLAIN). */
  readonly queryExpansion?: readonly string[];
  /** Expand the query with feedback terms from another retrieve node's hits (RM3-style second hop), drawn from hits of `seedKinds`. */
  readonly feedback?: { readonly fromNode: string; readonly documents: number; readonly terms: number; readonly seedKinds?: readonly SourceKind[] };
  /** Search each quoted multi-word title in this retrieve node's hits and keep the change record holding it (execution/quoted-title-hop.ts). */
  readonly quotedTitlesFrom?: string;
  /** Add the bridge entities a `bridge` reason node found to the query (the second hop of a decomposition). */
  readonly bridgeFrom?: string;
  /** Search for sub-question `slot` of a decompose reason node instead of the goal (a mixture's worker retrieval); no sub-question, no search. */
  readonly subQuestionOf?: { readonly node: string; readonly slot: number };
  /** Search only chunks stamped inside these windows (the moments the goal names); the method must report `timeWindows`. */
  readonly within?: readonly TimeWindow[];
  /**
   * The retrieval whose hits date the event the goal's record is anchored to ("right before the sink was
   * restarted on 9 March"): at run time `within` narrows to the hours on the asked side of the moment
   * those hits give it (text/event-anchor.ts); when they give none, `within` stands.
   */
  readonly anchoredOn?: string;
  /** Search only the passages kept for lookups (a commit's cut file diffs; execution/setting-lookup.ts); the method must report `lookupOnly`. */
  readonly lookupOnly?: boolean;
}
export interface FuseNode extends NodeBase {
  readonly kind: 'fuse';
  readonly strategy: 'rrf';
  /** RRF constant (Cormack et al. 2009 use 60). */
  readonly rrfK: number;
  readonly k: number;
}
export interface RerankNode extends NodeBase {
  readonly kind: 'rerank';
  readonly method: string;
  readonly topN: number;
}
export interface CompressNode extends NodeBase {
  readonly kind: 'compress';
  readonly method: CompressionMethod;
}
export interface AssembleNode extends NodeBase {
  readonly kind: 'assemble';
  readonly tokenBudget: number;
  readonly finalK: number;
  /** Give every retrieved source its best item before filling by rank (multi-evidence goals). */
  readonly coverSources?: boolean;
  /**
   * Kinds of source the goal names by word ("going by the health line eta-api logs"): the best item of
   * each that was retrieved gets a place in the context even when ranked below the cut.
   */
  readonly coverKinds?: readonly SourceKind[];
}
export interface ReasonNode extends NodeBase {
  readonly kind: 'reason';
  readonly strategy: ReasoningStrategy;
  readonly tier: string;
  readonly localOnly: boolean;
  readonly requireCitations: boolean;
  readonly maxOutputTokens: number;
  /**
   * `answer` (default): its output is the run's answer. `bridge`: a hop that names what to retrieve next.
   * A mixture's other calls: `decompose`, `worker`, `critic`, `solver` (contracts/reasoner.ts).
   */
  readonly purpose?: ReasonPurpose;
  /** A worker's or solver's slot in the mixture's fan-out (0-based): which sub-question it answers. */
  readonly slot?: number;
}

/** Whether a reason node's output is (an attempt at) the run's answer, rather than a step toward it. */
export const answersGoal = (node: Pick<ReasonNode, 'purpose'>): boolean => node.purpose === undefined || node.purpose === 'answer';
/**
 * What a verify node checks: a candidate's deterministic method, the answer against the request's
 * `output_schema`, or a judge model's reading of its groundedness (`llm_judge`, routed like any model call).
 */
export type VerifyMethod = VerificationMethod | 'output_schema' | 'llm_judge';

export interface VerifyNode extends NodeBase {
  readonly kind: 'verify';
  readonly method: VerifyMethod;
  /** The judge's model tier (`llm_judge` only). */
  readonly tier?: string;
  /** The judge may only call a local tier (`llm_judge` only). */
  readonly localOnly?: boolean;
  /** The attempt's verdict under a required verification: a failed one ends the run `unverified` unless a later attempt passes. */
  readonly required?: boolean;
}
export interface ApproveNode extends NodeBase {
  readonly kind: 'approve';
  /** Why a human must look (rule, risk, cost). */
  readonly reason: string;
  readonly approverRole: string;
}
export interface BranchNode extends NodeBase {
  readonly kind: 'branch';
  /** Condition over an input's output, "<input id>.<field>", e.g. "verify.passed". */
  readonly condition: string;
  readonly whenTrue: readonly string[];
  readonly whenFalse: readonly string[];
}
export interface MergeNode extends NodeBase {
  readonly kind: 'merge';
}

export type GraphNode = RetrieveNode | FuseNode | RerankNode | CompressNode | AssembleNode | ReasonNode | VerifyNode | ApproveNode | BranchNode | MergeNode;
export type NodeOfKind<K extends NodeKind> = Extract<GraphNode, { kind: K }>;

export interface ExecutionGraph {
  readonly version: typeof GRAPH_VERSION;
  readonly nodes: readonly GraphNode[];
}

/** Builds a frozen node of the given kind. */
export function createNode<K extends NodeKind>(kind: K, fields: Omit<NodeOfKind<K>, 'kind'>): NodeOfKind<K> {
  return Object.freeze({ kind, ...fields, inputs: Object.freeze([...fields.inputs]) }) as unknown as NodeOfKind<K>;
}

export function isNode<K extends NodeKind>(node: GraphNode, kind: K): node is NodeOfKind<K> {
  return node.kind === kind;
}

export function createGraph(nodes: readonly GraphNode[]): ExecutionGraph {
  return Object.freeze({ version: GRAPH_VERSION, nodes: Object.freeze([...nodes]) });
}

/** Returns a copy of the graph with one node replaced by `update(node)`. */
export function withNode(graph: ExecutionGraph, id: string, update: (node: GraphNode) => GraphNode): ExecutionGraph {
  return createGraph(graph.nodes.map((node) => (node.id === id ? Object.freeze({ ...update(node) }) : node)));
}

export function nodeById(graph: ExecutionGraph): ReadonlyMap<string, GraphNode> {
  return new Map(graph.nodes.map((node) => [node.id, node]));
}

/** Successor ids per node id (the reverse of `inputs`). */
export function successors(graph: ExecutionGraph): ReadonlyMap<string, readonly string[]> {
  const out = new Map<string, string[]>(graph.nodes.map((node) => [node.id, []]));
  for (const node of graph.nodes) for (const input of node.inputs) out.get(input)?.push(node.id);
  return out;
}
