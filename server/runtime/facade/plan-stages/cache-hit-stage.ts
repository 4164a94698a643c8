/**
 * Stage `cache_hit`: a plan served from the plan cache, fitted to this request. A hit reuses the
 * plan, not the question: this goal's own intent (entities, identifiers) drives retrieval, and the
 * cached plan's contradictions are re-read against this goal (it may have been made for another).
 */
import type { PlanCacheKey, PlanCacheLookup } from '../../contracts/plan-cache';
import type { ExplainResult } from '../../explain/explain-types';
import type { ExecutionGraph } from '../../ir/graph';
import { graphFromJson } from '../../ir/serialize-graph';
import { scopeContradictions } from '../../knowledge/goal-contradictions';
import { servedIntentFor } from '../../access/cached-intent-access';
import type { Intent, RunRequest } from '../../types';

export interface ServedPlan {
  readonly explain: ExplainResult;
  readonly graph: ExecutionGraph;
}

export function cacheHitStage(request: RunRequest, intent: Intent, key: PlanCacheKey, lookup: PlanCacheLookup, planningMs: () => number): ServedPlan {
  const cached = lookup.entry!;
  const explain = cached.payload as ExplainResult;
  const planCache = { status: 'hit' as const, key, similarity: lookup.similarity, tier: lookup.tier, servedIntent: servedIntentFor(request.principal!.user, intent.normalized, cached) };
  const contradictions = scopeContradictions([...(explain.contradictions ?? []), ...(explain.otherContradictions ?? [])], intent);
  return {
    graph: graphFromJson(explain.graph),
    explain: { ...explain, goal: request.goal, intent, contradictions: contradictions.concerning, otherContradictions: contradictions.other, planCache, planningMs: planningMs() },
  };
}
