import type { Citation, ContextItem, ReasoningStrategy } from '../types';
import type { RoutedResult, RouterPlugin } from './router';

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
  /** A mixture's calls as graph nodes (absent: one answering node, after any bridge hops). */
  readonly mixture?: MixtureShape;
  /**
   * The strategy needs a model that follows instructions (splits a question, critiques, judges): the
   * planner pairs it only with such a tier, never with the offline extractive reader.
   */
  readonly needsInstructions?: boolean;
  reason(request: ReasonRequest, router: RouterPlugin): Promise<ReasonResult>;
}
