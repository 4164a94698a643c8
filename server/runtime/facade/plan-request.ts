/**
 * plan(): goal → intent → candidates → estimates → chosen plan → Execution Graph, with the plan
 * cache consulted first. Pure planning plus one cache read/write; nothing else is persisted.
 */
import type { PlanningContext } from '../contracts/candidate-generator';
import { buildPlanCacheKey } from '../plancache/plan-cache-key';
import { ContextRuntimeError } from '../errors';
import type { ExplainResult } from '../explain/explain-types';
import { buildExecutionGraph } from '../execution/graph-builder';
import type { ExecutionGraph } from '../ir/graph';
import { graphFromJson } from '../ir/serialize-graph';
import { planHash, sha256Hex } from '../ir/plan-hash';
import { canonicalJson } from '../ir/serialize-graph';
import { planGoal } from '../planner/plan-pipeline';
import { resolveWeights } from '../costmodel/plan-score';
import { mergeConstraints } from '../constraints/validate-constraints';
import type { RuntimeConfig } from '../config/config-schema';
import type { Intent, RejectedSource, RunRequest, SourceInfo } from '../types';
import { scopeContradictions } from '../knowledge/goal-contradictions';
import { askerDigestOf, nearMissFor, servedIntentFor } from '../access/cached-intent-access';
import { explainCandidate, rankForExplain } from './explain-builder';
import type { RuntimePlugins } from './runtime-plugins';
import type { BanditLearner } from '../learning/bandit-learner';

export interface PlannedRequest {
  readonly request: RunRequest;
  readonly intent: Intent;
  readonly explain: ExplainResult;
  readonly graph: ExecutionGraph;
  /** Stage timings for the planner spans of a run. */
  readonly timings: Readonly<Record<string, number>>;
}

/**
 * Bumped whenever planning or graph building changes what a given input produces: it is part of
 * the plan-cache key and the plan hash, so plans cached by older code are never served.
 */
export const PLANNER_VERSION = 'planner-2026.11.30-10';

/** Output tokens a single answer may use; the cost model reads the same number via the tier caps. */
const MAX_ANSWER_TOKENS = 600;

function selectSources(request: RunRequest, all: readonly SourceInfo[]): { selected: SourceInfo[]; rejected: RejectedSource[] } {
  if (request.sources) {
    const known = new Set(all.map((source) => source.name));
    const unknown = request.sources.filter((name) => !known.has(name));
    if (unknown.length > 0) {
      throw new ContextRuntimeError('UNKNOWN_SOURCE', `sources: unknown source ${unknown.map((name) => `"${name}"`).join(', ')} (known: ${[...known].sort().join(', ') || 'none'})`, { field: 'sources', details: { unknown, known: [...known].sort() } });
    }
  }
  const rejected: RejectedSource[] = [];
  const selected: SourceInfo[] = [];
  for (const source of all) {
    if (request.sources && !request.sources.includes(source.name)) rejected.push({ source: source.name, reason: 'not_selected', detail: 'not among the requested sources' });
    else if (source.stale) rejected.push({ source: source.name, reason: 'stale', detail: source.staleReason ?? 'a newer version of what it was derived from exists' });
    else selected.push(source);
  }
  return { selected, rejected };
}

export async function planRequest(plugins: RuntimePlugins, config: RuntimeConfig, request: RunRequest, learner?: BanditLearner): Promise<PlannedRequest> {
  const started = performance.now();
  const timings: Record<string, number> = {};
  const intent = plugins.intentAnalyzer.analyze(request.goal);
  timings['planner.intent'] = performance.now() - started;

  const { selected, rejected: unselected } = selectSources(request, await plugins.knowledge.sources());
  const policy = plugins.policy.evaluate({ intent, principal: request.principal!, sources: selected });
  const allowed = selected.filter((source) => policy.allowedSources.includes(source.name));
  const rejectedSources = [...unselected, ...policy.deniedSources];
  const sourceFingerprint = await plugins.knowledge.fingerprint(allowed.map((source) => source.name));
  const constraints = { ...request.constraints, require_verification: request.constraints?.require_verification ?? (policy.requireVerification || undefined) };
  const weights = resolveWeights(config.costmodel.weights, request.weights);
  const retrievers = plugins.retrievers.map((retriever) => retriever.capabilities());
  const tiers = plugins.router.tiers();
  // What the plugins can do is part of the envelope: a tier gaining its key, or an extension
  // appearing, must re-plan rather than serve a plan made without it.
  const capabilityFingerprint = sha256Hex(canonicalJson({ retrievers: retrievers.map(({ method, available }) => [method, available]), tiers: tiers.map(({ name, available, capabilities }) => [name, available, capabilities]), retrieval: config.retrieval, scheduler: config.scheduler }));
  const key = buildPlanCacheKey({ intent, principal: request.principal!, policy, allowedSources: allowed.map((source) => source.name), sourceFingerprint, envelope: { constraints, weights, budgets: config.budgets }, plannerVersion: PLANNER_VERSION, capabilityFingerprint });

  // Reading sources, policy and fingerprints: paid by hits and misses alike (the cache key needs them).
  timings['planner.key'] = performance.now() - started;
  const cacheStarted = performance.now();
  const lookup = config.plan_cache.enabled && plugins.planCache ? await plugins.planCache.lookup(key) : undefined;
  const cached = lookup?.entry;
  timings['planner.plan_cache'] = performance.now() - cacheStarted;
  if (cached) {
    const explain = cached.payload as ExplainResult;
    // A hit reuses the plan, not the question: this goal's own intent (entities, identifiers) drives retrieval.
    const planCache = { status: 'hit' as const, key, similarity: lookup?.similarity, tier: lookup?.tier, servedIntent: servedIntentFor(request.principal!.user, intent.normalized, cached) };
    // The cached plan may have been made for another goal: its contradictions are re-read against this one.
    const contradictions = scopeContradictions([...(explain.contradictions ?? []), ...(explain.otherContradictions ?? [])], intent);
    return { request, intent, graph: graphFromJson(explain.graph), timings, explain: { ...explain, goal: request.goal, intent, contradictions: contradictions.concerning, otherContradictions: contradictions.other, planCache, planningMs: performance.now() - started } };
  }

  const context: PlanningContext = {
    retrievers,
    tiers,
    sources: allowed,
    policy,
    reasoners: plugins.reasoners.map((reasoner) => ({ strategy: reasoner.strategy, expectedModelCalls: reasoner.expectedModelCalls })),
    compressions: plugins.compressions.map((compression) => ({ method: compression.method, expectedRatio: compression.expectedRatio, expectedLoss: compression.expectedLoss })),
    verifiers: plugins.verifiers.map((verifier) => ({ method: verifier.method, confidencePrior: verifier.confidencePrior })),
    retrieval: { topK: config.retrieval.top_k, finalK: config.retrieval.final_k, contextTokenBudget: config.retrieval.context_token_budget },
  };
  const mergedConstraints = mergeConstraints(stripUndefined(config.budgets), stripUndefined(constraints));
  const planned = planGoal({ intent, context, constraints: mergedConstraints, weights, analyzer: plugins.intentAnalyzer, generator: plugins.candidateGenerator, costModel: plugins.costModel, optimizer: plugins.optimizer });
  timings['planner.candidates'] = planned.timings.generateMs;
  timings['planner.cost_model'] = planned.timings.estimateMs;
  timings['planner.optimizer'] = planned.timings.optimizeMs;

  // The online bandit (server/runtime/learning) may pick another of the top feasible plan shapes.
  const decision = learner?.settings.enabled ? (await learner.ready(), learner.decide(planned.candidates, intent)) : undefined;
  const chosen = decision?.candidate ?? planned.chosen;
  const chunkCount = allowed.reduce((sum, source) => sum + source.chunkCount, 0);
  const meanChunkTokens = chunkCount === 0 ? 0 : allowed.reduce((sum, source) => sum + source.tokenCount, 0) / chunkCount;
  const scopedSources = chosen.candidate.sourceKinds === 'all' ? allowed : allowed.filter((source) => (chosen.candidate.sourceKinds as readonly string[]).includes(source.kind));
  for (const source of allowed) {
    if (!scopedSources.includes(source)) rejectedSources.push({ source: source.name, reason: 'not_selected', detail: `kind ${source.kind} is outside the plan's scope (${(chosen.candidate.sourceKinds as readonly string[]).join(', ')})` });
  }
  const tokenBudget = Math.min(config.retrieval.context_token_budget, mergedConstraints.max_tokens ?? Number.POSITIVE_INFINITY);
  const graph = buildExecutionGraph({
    candidate: chosen.candidate,
    estimates: chosen.estimates,
    sources: scopedSources.map((source) => source.name),
    retrievers: context.retrievers,
    tokenBudget,
    finalK: config.retrieval.final_k,
    meanChunkTokens,
    localOnly: policy.localOnly,
    requireCitations: constraints.require_citations ?? true,
    approvalReason: policy.reasons.find((reason) => reason.includes('human')) ?? 'plan requires a human approval',
    maxOutputTokens: MAX_ANSWER_TOKENS,
    retry: { maxAttempts: config.scheduler.max_attempts, backoffMs: config.scheduler.backoff_ms },
    nodeTimeoutMs: config.scheduler.node_timeout_ms,
    intentClasses: intent.classes,
    observationSources: scopedSources.filter((source) => source.kind === 'logs' || source.kind === 'events').map((source) => source.name),
    bridgeHops: plugins.reasoners.find((reasoner) => reasoner.strategy === chosen.candidate.reasoning)?.bridgeHops ?? 0,
  });
  const hash = planHash({ intent, choice: chosen.candidate, sourceFingerprint, policyFingerprint: policy.fingerprint, constraints: mergedConstraints, plannerVersion: PLANNER_VERSION });
  const contradictions = scopeContradictions((await plugins.knowledge.contradictionsAmong?.(scopedSources.map((source) => source.name))) ?? [], intent);
  const explained = rankForExplain(planned.candidates, chosen).map((candidate) => explainCandidate(candidate, candidate.candidate.id === chosen.candidate.id));
  const explain: ExplainResult = {
    goal: request.goal,
    planHash: hash,
    intent,
    constraints: mergedConstraints,
    enumerated: planned.enumerated,
    candidates: explained,
    chosen: explainCandidate(chosen, true),
    rejectedCandidates: planned.rejected,
    selectedSources: scopedSources.map((source) => source.name),
    rejectedSources,
    contradictions: contradictions.concerning,
    otherContradictions: contradictions.other,
    estimates: { costUsd: chosen.estimates.costUsd, accuracy: chosen.estimates.accuracy, latencySeconds: chosen.estimates.latencySeconds, tokens: chosen.estimates.tokens },
    tokenBudget: { budget: tokenBudget, finalK: config.retrieval.final_k, estimatedContextTokens: Math.round(Math.min(chosen.estimates.tokens.value, config.retrieval.final_k * meanChunkTokens)) },
    verificationPlan: { method: chosen.candidate.verification, requireCitations: constraints.require_citations ?? true, approval: chosen.candidate.approval, reasons: policy.reasons },
    planCache: { status: config.plan_cache.enabled && plugins.planCache ? 'miss' : 'disabled', key, askerDigest: askerDigestOf(request.principal!.user), ...(lookup?.nearMiss ? { nearMiss: nearMissFor(intent.normalized, lookup.nearMiss) } : {}), ...(lookup?.error ? { error: lookup.error } : {}) },
    graph,
    costModel: { version: plugins.costModel.version, weights },
    capabilities: { store: plugins.storeCapabilities, retrievers: context.retrievers, tiers: context.tiers },
    planningMs: performance.now() - started,
    ...(decision ? { learning: decision.explain } : {}),
  };
  if (config.plan_cache.enabled && plugins.planCache) await plugins.planCache.put(key, hash, explain);
  return { request, intent, explain, graph, timings };
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined)) as Partial<T>;
}
