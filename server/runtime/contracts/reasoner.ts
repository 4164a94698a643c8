import type { Citation, ContextItem, Hit, ReasoningStrategy } from '../types';
import type { ModelStep, ToolLoopEnd } from './model';
import type { RoutedResult, RouterPlugin } from './router';

/**
 * The runtime's own reads a tool-calling reasoner may offer its model, bound to one run: every read
 * goes through the run's source permissions (the principal's readable sources within the plan's),
 * and a source outside them reads as one that does not exist.
 */
export interface ReasoningTools {
  /** Passages for `text` by the plan's retrieval method (`retrieve`) or the identifier index (`exact`). */
  search(query: { readonly how: 'retrieve' | 'exact'; readonly text: string; readonly sources?: readonly string[]; readonly k: number }, signal?: AbortSignal): Promise<ToolRead<Hit>>;
  /** Knowledge Layer facts whose subject is `entity` (current, valid now). */
  facts(query: { readonly entity: string; readonly sources?: readonly string[] }): Promise<ToolRead<KnowledgeFact>>;
  /** The sources the tools may read (what the model is told it can ask for). */
  readonly sources: readonly string[];
}

export interface ToolRead<T> {
  readonly items: readonly T[];
  /** Sources asked for that this run may not read (or that do not exist): nothing was read from them. */
  readonly unknownSources: readonly string[];
}

export interface KnowledgeFact {
  readonly subject: string;
  readonly attribute: string;
  readonly value: string;
  readonly sourceName: string;
}

/** One tool call of a tool loop, as EXPLAIN ANALYZE and the trace show it. */
export interface ToolCallRecord {
  readonly step: number;
  readonly tool: string;
  readonly input: unknown;
  readonly latencyMs: number;
  readonly startedAtMs: number;
  /** Passages (refs into the loop's numbered items) or facts it returned. */
  readonly refs: readonly number[];
  readonly facts: number;
  readonly unknownSources: readonly string[];
  readonly error?: string;
}

/** What a tool loop did: its model calls (steps), its tool calls, and how it ended. */
export interface ToolLoopReport {
  readonly maxSteps: number;
  readonly steps: readonly ModelStep[];
  readonly toolCalls: readonly ToolCallRecord[];
  readonly end: ToolLoopEnd;
}

/** Contract version of the Reasoner plugin. */
export const REASONER_CONTRACT = 'reasoner/v1' as const;

export interface ReasonRequest {
  readonly goal: string;
  readonly context: readonly ContextItem[];
  readonly tier: string;
  readonly requireCitations: boolean;
  readonly localOnly: boolean;
  /** Sources whose passages never reach a non-local tier (the reasoner then keeps the call local). */
  readonly sensitiveSources?: readonly string[];
  /** A passage holding personal data or secrets, for a non-local tier: held back (local_only, the default) or sent for the tier's guard to redact (redact). */
  readonly sensitiveContent?: 'local_only' | 'redact';
  readonly maxOutputTokens: number;
  readonly timeoutMs: number;
  /** Aborted when the node timed out or the run was cancelled: every model call receives it. */
  readonly signal?: AbortSignal;
  /**
   * `bridge`: a hop of a multi-call strategy, asked for what to retrieve next rather than the final answer.
   * A mixture's calls (reasoner-mixtures.ts): `decompose` splits the goal into sub-questions, a `worker`
   * answers one (the request's goal is its sub-question), a `critic` checks the workers' grounding,
   * a `solver` answers on its own for a judge; the mixture's `answer` call merges or judges `findings`.
   */
  readonly purpose?: ReasonPurpose;
  /** A worker's or solver's position in the mixture's fixed fan-out (0-based). */
  readonly slot?: number;
  /** What the mixture's earlier calls answered (workers or solvers, with the critic's verdicts), for the critic, merge or judge call. */
  readonly findings?: readonly Finding[];
  /** Names earlier bridge hops found (self-ask's intermediate answers), for the hop that answers. */
  readonly bridge?: readonly string[];
  /** The answer must be one JSON value matching this JSON Schema (the request's output_schema); the answering call asks for structured output. */
  readonly outputSchema?: Readonly<Record<string, unknown>>;
  /** The run's tools, for a reasoner that lets its model call them (tool_loop); absent for the others. */
  readonly tools?: ReasoningTools;
}

export interface ReasonResult {
  readonly answer: string;
  readonly citations: readonly Citation[];
  readonly modelCalls: readonly RoutedResult[];
  /** A bridge hop's names for the next retrieval (a retrieve node's `bridgeFrom` reads them). */
  readonly bridge?: readonly string[];
  /** A decompose call's sub-questions, one per worker slot (fewer than the fan-out leaves the rest of the workers idle). */
  readonly subQuestions?: readonly string[];
  /** A critic call's verdict per worker, in slot order. */
  readonly critique?: readonly Pick<Finding, 'slot' | 'grounded' | 'critique'>[];
  /** The sub-question a worker answered (its request's goal). */
  readonly question?: string;
  /** A worker with no sub-question to answer: it made no model call. */
  readonly idle?: boolean;
  /**
   * Passages that hold personal data or secrets (marked at ingest, or of a sensitive source) and
   * went to a non-local tier redacted, or not at all: the run's caveats say so. Absent when none.
   */
  readonly sensitivePassages?: { readonly withheld: number; readonly redacted: number };
  /** A tool loop's steps and tool calls; absent for other strategies. */
  readonly toolLoop?: ToolLoopReport;
}

export type ReasonPurpose = 'answer' | 'bridge' | 'decompose' | 'worker' | 'critic' | 'solver';

/** One worker's or solver's answer as a later call of the mixture reads it. */
export interface Finding {
  readonly slot: number;
  /** The sub-question a worker answered (a solver answers the goal itself). */
  readonly question: string;
  readonly answer: string;
  readonly citations: readonly Citation[];
  /** The critic's verdict on the answer's grounding in its cited evidence; absent before a critic ran. */
  readonly grounded?: boolean;
  readonly critique?: string;
}

/** How a mixture lays out its calls as graph nodes: fixed at plan time, since the IR is immutable. */
export interface MixtureShape {
  /** `plan_worker_critic`: decompose → one retrieval and worker per sub-question → critic → merge. `debate`: solvers → judge. */
  readonly layout: 'plan_worker_critic' | 'debate';
  /** Workers or solvers: each its own graph node, run in parallel by the scheduler. */
  readonly branches: number;
}

/** A strategy over one or more model calls (Reasoner → Router → Model). */
export interface ReasonerPlugin {
  readonly contract: typeof REASONER_CONTRACT;
  readonly strategy: ReasoningStrategy;
  /** Expected number of model calls, for the cost model. */
  readonly expectedModelCalls: number;
  /** Retrieval hops the strategy runs as graph nodes (a bridge reason node, then a retrieve on its names, per extra hop); absent = 0. */
  readonly bridgeHops?: number;
  /** Its model calls runtime tools: offered only on a tier with tool calls, and given `tools` by the executor. */
  readonly requiresToolCalls?: boolean;
  /** A mixture's calls as graph nodes (absent: one answering node, after any bridge hops). */
  readonly mixture?: MixtureShape;
  /**
   * The strategy needs a model that follows instructions (splits a question, critiques, judges): the
   * planner pairs it only with such a tier, never with the offline extractive reader.
   */
  readonly needsInstructions?: boolean;
  reason(request: ReasonRequest, router: RouterPlugin): Promise<ReasonResult>;
}
