/**
 * plan(): goal → intent → candidates → estimates → chosen plan → Execution Graph, with the plan
 * cache consulted first. A pipeline of named stages (facade/plan-stages), each timed under its
 * name: those timings are the planner spans of a trace and bench:plan-overhead's breakdown.
 * Pure planning plus the source reads (cached in the runtime between writes) and one plan-cache
 * read/write; nothing else is persisted.
 */
import type { ExplainResult } from '../explain/explain-types';
import type { ExecutionGraph } from '../ir/graph';
import type { RuntimeConfig } from '../config/config-schema';
import type { Intent, RunRequest } from '../types';
import { storedExplain } from '../explain/stored-explain';
import { scopeContradictions } from '../knowledge/goal-contradictions';
import { type LearningState, learningStateFor } from '../costmodel/calibration-state';
import { resolveReasonerGains } from '../costmodel/reasoner-gains';
import type { BanditLearner } from '../learning/bandit-learner';
import type { RuntimePlugins } from './runtime-plugins';
import { cacheArmStage } from './plan-stages/cache-arm-stage';
import { cacheHitStage } from './plan-stages/cache-hit-stage';
import { explainStage } from './plan-stages/explain-stage';
import { graphStage } from './plan-stages/graph-stage';
import { planKeyStage } from './plan-stages/plan-key-stage';
import { learningStage, planningStage } from './plan-stages/planning-stage';
import { policyStage } from './plan-stages/policy-stage';
import { sourceSelectionStage } from './plan-stages/source-selection-stage';
import { StageTimer } from './plan-stages/stage-timer';

export interface PlannedRequest {
  readonly request: RunRequest;
  readonly intent: Intent;
  readonly explain: ExplainResult;
  readonly graph: ExecutionGraph;
  /** Each stage's own duration (ms) under `planner.<stage>`, in the order they ran: the planner spans of a run. */
  readonly timings: Readonly<Record<string, number>>;
}

/**
 * Bumped whenever planning or graph building changes what a given input produces: it is part of
 * the plan-cache key and the plan hash, so plans cached by older code are never served.
 */
export const PLANNER_VERSION = 'planner-2026.12.07-61';

export interface PlanRequestOptions {
  /**
   * `behind`: the plan-cache row and a miss's near-miss diagnosis are written after plan()
   * returns (plancache/write-behind-queue.ts), so a run does not wait for them; EXPLAIN's
   * planCache then has no nearMiss. `inline` (default; runtime.explain): both before returning.
   */
  readonly planCacheWrites?: 'inline' | 'behind';
}

export async function planRequest(plugins: RuntimePlugins, config: RuntimeConfig, request: RunRequest, learner?: BanditLearner, options: PlanRequestOptions = {}): Promise<PlannedRequest> {
  const behind = options.planCacheWrites === 'behind' && plugins.planCache?.putBehind !== undefined;
  const timer = new StageTimer();
  const cacheOn = config.plan_cache.enabled && plugins.planCache !== undefined;
  const intent = timer.run('intent', () => plugins.intentAnalyzer.analyze(request.goal));
  const selection = await timer.runAsync('sources', () => sourceSelectionStage(plugins.knowledge, request));
  const outcome = timer.run('policy', () => policyStage(plugins.policy, request, intent, selection));
  const sourceFingerprint = await timer.runAsync('fingerprint', () => plugins.knowledge.fingerprint(outcome.allowed.map((source) => source.name)));
  // The measured model-cache hit rates the key and the cost model read: loaded from the store once per process.
  await plugins.modelContextCache?.ready();
  // Observed runs teach learned-v2's corrections and the reasoner gains the key hashes, so they are read before the key.
  const state = learner?.settings.learnedEstimates ? await timer.runAsync('estimator', () => learnedStateOf(plugins)) : undefined;
  const learned = state?.learner;
  const reasonerGains = resolveReasonerGains(config.costmodel.reasoner_gains, state?.outcomes);
  const planKey = timer.run('key', () => planKeyStage(plugins, config, { request, intent, outcome, sourceFingerprint, plannerVersion: PLANNER_VERSION, reasonerGains }));

  const lookup = cacheOn ? await timer.runAsync('plan_cache', () => plugins.planCache!.lookup(planKey.key, { nearMiss: behind ? 'behind' : 'inline' })) : undefined;
  if (lookup?.entry) {
    const hit = timer.run('cache_hit', () => cacheHitStage(request, intent, planKey.key, lookup, () => timer.elapsed()));
    const served = await timer.runAsync('cache_arm', () => cacheArmStage(plugins, config, learner, { intent, outcome, planKey, sourceFingerprint, plannerVersion: PLANNER_VERSION, served: hit, learned, outputSchema: request.output_schema !== undefined }));
    return { request, intent, ...served, timings: timer.timings };
  }

  const planning = planningStage(plugins, config, { intent, outcome, planKey, learned });
  timer.record('candidates', planning.planned.timings.generateMs);
  timer.record('cost_model', planning.planned.timings.estimateMs);
  timer.record('optimizer', planning.planned.timings.optimizeMs);
  const learning = await timer.runAsync('learning', () => learningStage(learner, planning.planned, intent));
  const built = timer.run('graph', () => graphStage(plugins, config, { chosen: learning.chosen, allowed: outcome.allowed, policy: outcome.policy, context: planning.context, constraints: planning.constraints, requireCitations: outcome.constraints.require_citations ?? true, intent, requireVerification: outcome.constraints.require_verification === true, outputSchema: request.output_schema !== undefined }));
  const contradictions = await timer.runAsync('contradictions', async () => scopeContradictions((await plugins.knowledge.contradictionsAmong?.(built.scopedSources.map((source) => source.name))) ?? [], intent));
  const explain = timer.run('explain', () => explainStage(plugins, config, { request, intent, outcome, sourceFingerprint, key: planKey.key, lookup, planning, learning, built, contradictions, plannerVersion: PLANNER_VERSION, planningMs: () => timer.elapsed() }));
  // The cache keeps the compact EXPLAIN a run record keeps: the full rejected list (most of a
  // 414 KB payload on the demo corpus) made every miss's write the largest share of plan().
  // Compacted now, not behind: a queued closure over the whole EXPLAIN held its ~1,000 rejected
  // candidates per pending write, and the garbage collector's extra work landed in later plans'
  // cost model (bench:plan-overhead, uncached cost_model p50 0.7 → 4.3 ms).
  if (cacheOn && behind) {
    timer.run('plan_cache_put', () => {
      const stored = storedExplain(explain, config.retention.rejected_candidates_kept);
      return plugins.planCache!.putBehind!(planKey.key, explain.planHash, () => stored);
    });
  } else if (cacheOn) await timer.runAsync('plan_cache_put', () => plugins.planCache!.put(planKey.key, explain.planHash, storedExplain(explain, config.retention.rejected_candidates_kept)));
  return { request, intent, explain, graph: built.graph, timings: timer.timings };
}

/**
 * learned-v2's state and the reasoner outcome tally for the planner's estimator (loaded once per store, then extended run by run).
 * An unreadable observation store plans with the heuristic alone: learning must not fail a plan.
 */
async function learnedStateOf(plugins: RuntimePlugins): Promise<LearningState | undefined> {
  try {
    return await learningStateFor(plugins.observationStore, plugins.costModel.version);
  } catch {
    return undefined;
  }
}
