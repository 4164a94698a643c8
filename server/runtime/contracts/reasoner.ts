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
  /** `bridge`: a hop of a multi-call strategy, asked for what to retrieve next rather than the final answer. */
  readonly purpose?: 'answer' | 'bridge';
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
  /**
   * Passages that hold personal data or secrets (marked at ingest, or of a sensitive source) and
   * went to a non-local tier redacted, or not at all: the run's caveats say so. Absent when none.
   */
  readonly sensitivePassages?: { readonly withheld: number; readonly redacted: number };
}

/** A strategy over one or more model calls (Reasoner → Router → Model). */
export interface ReasonerPlugin {
  readonly contract: typeof REASONER_CONTRACT;
  readonly strategy: ReasoningStrategy;
  /** Expected number of model calls, for the cost model. */
  readonly expectedModelCalls: number;
  /** Retrieval hops the strategy runs as graph nodes (a bridge reason node, then a retrieve on its names, per extra hop); absent = 0. */
  readonly bridgeHops?: number;
  reason(request: ReasonRequest, router: RouterPlugin): Promise<ReasonResult>;
}
