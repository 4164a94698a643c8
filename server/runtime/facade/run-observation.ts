/**
 * What a finished run teaches the cost model: its actual spend against the plan's estimates, and
 * the proxies for the fields that are not measured directly (costmodel/cost-estimator.ts).
 */
import type { RunStatus } from '../contracts/run-store';
import type { NodeOutcome } from '../contracts/scheduler';
import { CostEstimator } from '../costmodel/cost-estimator';
import type { ExplainResult } from '../explain/explain-types';
import { type ExecutionGraph, modelTokensOf } from '../ir/graph';
import { answerOutputsOf } from '../ir/node-outputs';
import { modelCacheUsage } from '../modelcache/model-cache-usage';
import type { StoredResult } from './execute-run';
import type { RuntimePlugins } from './runtime-plugins';

/** The run's model tokens, cost and latency summed over its node outcomes. */
export function sumActuals(graph: ExecutionGraph, outcomes: ReadonlyMap<string, NodeOutcome>) {
  const kindOf = new Map(graph.nodes.map((node) => [node.id, node.kind]));
  let tokens = 0;
  let costUsd = 0;
  let latencySeconds = 0;
  for (const [nodeId, outcome] of outcomes) {
    tokens += modelTokensOf(kindOf.get(nodeId) ?? '', outcome.actual);
    costUsd += outcome.actual.costUsd;
    latencySeconds += outcome.actual.latencySeconds;
  }
  return { tokens, costUsd, latencySeconds };
}

/** Ends whose runs are observed: an answer (verified or not), or none (failed, rejected). */
export const OBSERVED_ENDS: ReadonlySet<RunStatus> = new Set(['completed', 'unverified', 'failed', 'rejected']);

export async function observe(plugins: RuntimePlugins, runId: string, explain: ExplainResult, outcomes: ReadonlyMap<string, NodeOutcome>, stored: StoredResult | undefined, status: RunStatus): Promise<void> {
  const totals = sumActuals(explain.graph, outcomes);
  // Ended without an answer; an unverified run answered and is scored by its verdict.
  const ended = status === 'failed' || status === 'rejected';
  const { context, compressed } = answerOutputsOf(explain.graph, outcomes);
  const verification = stored?.verification;
  const grounding = verification?.checks.find((check) => check.name === 'groundedness');
  const retrievedTokens = compressed?.tokensBefore ?? 0;
  const modelCache = modelCacheUsage(explain.graph, outcomes);
  // A call served from the model-context cache spent $0 and no tokens: recorded as spend, it would
  // teach the cost model that the plan is free. Such a run is observed as a hit instead: no tokens,
  // cost or latency observation (its miss, which made the entry, measured those), and cacheHit is
  // the share of its calls the cache served, the figure the cacheHit estimate predicts.
  const served = modelCache.hits > 0;
  const spend = served ? {} : { tokens: totals.tokens, costUsd: totals.costUsd, latencySeconds: totals.latencySeconds };
  const cacheHit = served ? modelCache.hits / modelCache.calls : explain.planCache.status === 'hit' ? 1 : 0;
  await new CostEstimator(plugins.observationStore, explain.costModel.version).observe(
    // Against the prior's estimates when learned-v2 corrected them: the learner learns the heuristic's error, never its own.
    { runId, planHash: explain.planHash, intentClass: explain.intent.primary, estimates: { ...explain.chosen.estimates, ...explain.estimator?.priorEstimates }, choice: explain.chosen.choice, features: explain.estimator?.features },
    {
      ...spend,
      accuracy: ended ? 0 : verification ? Number(verification.passed) : Number((stored?.citations.length ?? 0) > 0),
      risk: ended ? 1 : verification ? Number(!verification.passed) : 0,
      hallucination: !ended && grounding ? 1 - grounding.score : undefined,
      contextLoss: !ended && retrievedTokens > 0 && context ? Math.max(0, 1 - context.tokens / retrievedTokens) : undefined,
      cacheHit,
      verificationConfidence: ended ? undefined : verification?.confidence,
    },
  );
}
