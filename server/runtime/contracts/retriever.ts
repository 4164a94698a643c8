import type { CallAdmission } from './router';
import type { Hit, SourceKind } from '../types';

/** Contract version; bump on a breaking change so an out-of-tree plugin fails loudly. */
export const RETRIEVER_CONTRACT = 'retriever/v1' as const;

/** What a retriever can do and roughly what it costs; reported by the plugin, never assumed by the planner. */
export interface RetrieverCapabilities {
  /** Method name the planner enumerates (e.g. "bm25", "fulltext", "dense", "exact"). */
  readonly method: string;
  /** False when a dependency is missing; the planner prunes candidates using it and EXPLAIN quotes `unavailableReason`. */
  readonly available: boolean;
  readonly unavailableReason?: string;
  /** Store capabilities it needs (e.g. "pg_textsearch", "vector"). */
  readonly requires: readonly string[];
  /** Expected milliseconds for one query at the current corpus size. */
  readonly latencyMs: number;
  /** Prior probability that the top-k holds the evidence, per intent class (0–1); the cost model's accuracy input. */
  readonly recallPrior: Readonly<Partial<Record<string, number>>>;
  /** Source kinds this method is fit for; undefined = any. */
  readonly sourceKinds?: readonly SourceKind[];
  /**
   * Methods this one already runs inside (hybrid = bm25 + dense; a reranker over bm25). The planner
   * never fuses it again with them, or with another method built on the same ones: that fusion
   * counts the same evidence twice (SciFact: hybrid+rerank 0.696 nDCG@10 vs rerank alone 0.715).
   */
  readonly composedOf?: readonly string[];
  /**
   * Measured worth of fusing this method with another (reciprocal rank): partner method → intent
   * class → the fused list's score over the better member's alone. The cost model uses it in place
   * of its fusion formula for that pair; absent pairs and classes keep the formula.
   */
  readonly fusionRatios?: Readonly<Record<string, Readonly<Partial<Record<string, number>>>>>;
  /** Money one query spends outside the database (an LLM reranker's model calls); 0 when absent. */
  readonly costUsdPerQuery?: number;
  /** Model tokens one query spends (counted with the plan's tokens); 0 when absent. */
  readonly tokensPerQuery?: number;
  /** True when a query sends passages to a non-local model: cut under local-only policy and sensitive goals. */
  readonly sendsPassagesOffMachine?: boolean;
  /** True when `RetrievalQuery.within` is honoured (only chunks stamped inside a window are searched); absent = ignored. */
  readonly timeWindows?: boolean;
  /** True when `searchLookupOnly` is implemented: the retriever can run a setting lookup. */
  readonly lookupOnly?: boolean;
  /**
   * True when hits of different sources are scored on one scale (one index, corpus-wide term
   * statistics), so one source's best score can be compared with another's. Absent = scores are only
   * comparable within one source's list, and per-source retrieval keeps every source's leader.
   */
  readonly sharedScoreScale?: boolean;
}

/**
 * A stretch of time a question asks about, in minutes, both ends inclusive: "yyyy-mm-ddThh:mm", or
 * "mm-ddThh:mm" with `anyYear` ("on 9 March" in a postmortem that never says the year).
 */
export interface TimeWindow {
  readonly from: string;
  readonly to: string;
  readonly anyYear?: boolean;
}

/** What a model-calling retriever spent on one search (an LLM reranker's calls). */
export interface RetrievalSpend {
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly costUsd: number;
}

export interface RetrievalQuery {
  readonly text: string;
  readonly k: number;
  /** Restrict to these source names (already permission- and staleness-filtered by the planner). */
  readonly sources: readonly string[];
  /** Identifiers the intent analyzer extracted, for exact lookup. */
  readonly identifiers?: readonly string[];
  /**
   * The plan keeps its passages on local models: a plugin that would send them to a non-local one
   * refuses (FORBIDDEN) instead. Optional so plugins that call no model need no change.
   */
  readonly localOnly?: boolean;
  /** Sources whose passages never go to a non-local model (flagged sensitive at ingest or in config). */
  readonly sensitiveSources?: readonly string[];
  /**
   * A retriever that calls a model reports each search's spend here, so the retrieve node's actual
   * cost (EXPLAIN ANALYZE, calibration, the run's total) holds it. Optional on both sides, so
   * retriever/v1 plugins that spend nothing need no change.
   */
  readonly onSpend?: (spend: RetrievalSpend) => void;
  /**
   * The run's budget (execution/run-budget.ts): a plugin that calls a model asks it before each call
   * starts and tells it how the call ended; a refusal (it throws) means the call must not be made.
   */
  readonly admit?: CallAdmission;
  /**
   * The node timed out or the run was cancelled. A retriever passes it to the model calls it makes
   * and stops between steps (`signal.throwIfAborted()`): it never returns results after the abort.
   * A query already sent to the database cannot be cancelled on PGlite; its rows are dropped.
   */
  readonly signal?: AbortSignal;
  /**
   * Search only chunks stamped inside one of these windows (a log window's or a metrics row window's
   * first and last timestamp overlap it); a retriever without the `timeWindows` capability ignores it.
   */
  readonly within?: readonly TimeWindow[];
}

/** A retrieval strategy over the Knowledge Layer. */
export interface RetrieverPlugin {
  readonly contract: typeof RETRIEVER_CONTRACT;
  /** The method name; unique among registered retrievers. */
  readonly method: string;
  capabilities(): RetrieverCapabilities;
  /** Ranked hits, best first, at most `query.k`. */
  search(query: RetrievalQuery): Promise<readonly Hit[]>;
  /**
   * Each of `query.sources` searched on its own, at most `query.k` hits each: what `search` on one
   * source at a time returns, in one call (one statement where the store can; the same work inside
   * it). Optional: without it a per-source retrieval calls `search` once per source.
   */
  searchEach?(query: RetrievalQuery): Promise<ReadonlyMap<string, readonly Hit[]>>;
  /**
   * Several query texts over the same sources, at most `query.k` hits each, in `texts` order: what
   * `search` returns for each text, in one call (one statement where the store can). `query.text`
   * is ignored. Optional: without it each text is a `search` of its own.
   */
  searchMany?(texts: readonly string[], query: RetrievalQuery): Promise<readonly (readonly Hit[])[]>;
  /**
   * What `search` returns, over the passages kept for lookups only (IngestChunk.lookupOnly: the file
   * diffs a commit's chunk cut) instead of the ones every other search reads. Optional: a retriever
   * without it is never planned for a setting lookup.
   */
  searchLookupOnly?(query: RetrievalQuery): Promise<readonly Hit[]>;
}
