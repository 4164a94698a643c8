import type { CallAdmission } from './router';
import type { Hit } from '../types';
import type { RetrievalSpend } from './retriever';

/** Contract version; bump on a breaking change so an out-of-tree plugin fails loudly. */
export const RERANKER_CONTRACT = 'reranker/v1' as const;

/** What a reranker can do and roughly what it costs over one head; reported by the plugin, never assumed. */
export interface RerankerCapabilities {
  /** Method name a `rerank` node names (e.g. "linear", "llm"). */
  readonly method: string;
  /** False when a dependency is missing (an unreachable model tier); edited plans refuse it, quoting `unavailableReason`. */
  readonly available: boolean;
  readonly unavailableReason?: string;
  /** Expected milliseconds to rerank one head of the plugin's default size, on top of the first stage. */
  readonly latencyMs: number;
  /** Money one rerank spends outside the database (model calls); 0 when absent. */
  readonly costUsdPerQuery?: number;
  /** Model tokens one rerank spends; 0 when absent. */
  readonly tokensPerQuery?: number;
  /** True when reranking sends passages to a non-local model: refused under local-only policy. */
  readonly sendsPassagesOffMachine?: boolean;
  /**
   * The first-stage method whose scores the reranker's model was fitted to, when it reads them
   * (the linear model's features are shares of bm25's scores: over another first stage's hits
   * they mean something else). Undefined when the hits' scores are not read.
   */
  readonly trainedOn?: string;
}

export interface RerankRequest {
  /** The query text the first stage searched with (the goal). */
  readonly text: string;
  /** Identifiers the intent analyzer extracted (as the first stage received them). */
  readonly identifiers?: readonly string[];
  /** The first stage's hits, best first. */
  readonly hits: readonly Hit[];
  /** How many of the leading hits are reordered; the rest keep their order below them. */
  readonly topN: number;
  /**
   * The plan keeps its passages on local models: a plugin that would send them to a non-local one
   * refuses (FORBIDDEN) instead. Optional so plugins that call no model need no change.
   */
  readonly localOnly?: boolean;
  /** Sources whose passages never go to a non-local model (flagged sensitive at ingest or in config). */
  readonly sensitiveSources?: readonly string[];
  /** A model-calling reranker reports each rerank's spend here (the node's actual cost). */
  readonly onSpend?: (spend: RetrievalSpend) => void;
  /**
   * The run's budget (execution/run-budget.ts): a plugin that calls a model asks it before each call
   * starts and tells it how the call ended; a refusal (it throws) means the call must not be made.
   */
  readonly admit?: CallAdmission;
  /** Aborted when the node timed out or the run was cancelled: passed to model calls, and no result after it. */
  readonly signal?: AbortSignal;
}

/** A second stage over a first stage's hits: reorders their head, never adds or drops a hit. */
export interface RerankerPlugin {
  readonly contract: typeof RERANKER_CONTRACT;
  /** The method name; unique among registered rerankers. */
  readonly method: string;
  capabilities(): RerankerCapabilities;
  /**
   * Every hit of the request, once: the first `topN` reordered, the rest after them in first-stage
   * order; ranks renumbered from 1 and `method` set to the reranker's.
   */
  rerank(request: RerankRequest): Promise<readonly Hit[]>;
}
