/**
 * A run's stored plan, split for storage: the EXPLAIN's parts that every run served from one
 * plan-cache entry repeats unchanged (candidates, rejected candidates, graph, capabilities,
 * learning arms) go to run_plan_bodies once per content hash; the rest (request, goal, intent,
 * planning time, the plan cache's verdict) stays on the run row. bench:loc: 58 KB of a 65 KB plan
 * was written again with every run, ~4 ms of the embedded database's CPU (jsonb parsing and
 * compression of the whole value) in a ~90 ms run.
 */
import { sha256Hex } from './ids';

/** Keys of the EXPLAIN a plan-cache hit copies from its entry (plan-stages/cache-hit-stage.ts). */
const SHARED_KEYS = Object.freeze(['candidates', 'rejectedCandidates', 'rejectedSummary', 'learningArms', 'capabilities', 'graph', 'costModel'] as const);

export interface SplitPlan {
  /** The plan without the shared keys of its EXPLAIN. */
  readonly rest: unknown;
  /** The shared keys as JSON text and its SHA-256; absent when the plan has none of them. */
  readonly body?: { readonly hash: string; readonly json: string };
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

export function splitPlan(plan: unknown): SplitPlan {
  if (!isRecord(plan) || !isRecord(plan.explain)) return { rest: plan };
  const explain: Record<string, unknown> = { ...plan.explain };
  const shared: Record<string, unknown> = {};
  for (const key of SHARED_KEYS) {
    if (!(key in explain)) continue;
    shared[key] = explain[key];
    delete explain[key];
  }
  if (Object.keys(shared).length === 0) return { rest: plan };
  const json = JSON.stringify(shared);
  return { rest: { ...plan, explain }, body: { hash: sha256Hex(json), json } };
}

/** The plan as createRun was given it: the run row's part with its body's keys put back. */
export function joinPlan(rest: unknown, body: unknown): unknown {
  if (!isRecord(body) || !isRecord(rest) || !isRecord(rest.explain)) return rest;
  return { ...rest, explain: { ...rest.explain, ...body } };
}
