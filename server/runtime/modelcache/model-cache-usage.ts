/**
 * What the model-context cache did for one run, read from its nodes' model calls. A call answered
 * from the cache spent nothing (its node's actuals are $0 and 0 tokens), so a run with a hit is no
 * measurement of what its plan costs: the cost model and the bandit must see it as a hit, not as a
 * plan that happens to be free (issue 15: a hit recording $0 actuals skewed cost and latency learning).
 */
import type { RoutedResult } from '../contracts/router';
import type { ExecutionGraph } from '../ir/graph';
import { findNodesByRole, outputOf } from '../ir/node-outputs';

export interface ModelCacheUsage {
  /** Model calls the run made (reason nodes and verification judges), served or not. */
  readonly calls: number;
  /** Calls answered from the model-context cache. */
  readonly hits: number;
  /** What the hits' original calls spent, which this run did not. */
  readonly savedTokens: number;
  readonly savedCostUsd: number;
}

type OutcomesById = ReadonlyMap<string, { readonly output: unknown }>;

export function modelCacheUsage(graph: ExecutionGraph, outcomes: OutcomesById): ModelCacheUsage {
  const calls: RoutedResult[] = [
    ...findNodesByRole(graph, 'reason').flatMap((node) => outputOf(outcomes, node)?.modelCalls ?? []),
    ...findNodesByRole(graph, 'verify').flatMap((node) => outputOf(outcomes, node)?.modelCalls ?? []),
  ];
  const hits = calls.filter((call) => call.cache?.status === 'hit');
  return {
    calls: calls.length,
    hits: hits.length,
    savedTokens: hits.reduce((sum, call) => sum + (call.cache?.savedTokens ?? 0), 0),
    savedCostUsd: hits.reduce((sum, call) => sum + (call.cache?.savedCostUsd ?? 0), 0),
  };
}
