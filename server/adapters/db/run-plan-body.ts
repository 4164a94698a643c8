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
  return { rest: { ...plan, explain }, body: bodyOf(shared) };
}

/**
 * The body's JSON and hash, computed once per set of shared values: every run served from one
 * plan-cache entry carries that entry's objects themselves, so a body made of the same objects
 * is the same text (bench:loc: the stringify and hash were ~0.5 ms of every run). Keyed by the
 * first shared value; a hit needs every value to be the identical object (nothing here mutates them).
 */
const bodies = new WeakMap<object, { readonly values: readonly unknown[]; readonly body: { readonly hash: string; readonly json: string } }>();

function bodyOf(shared: Record<string, unknown>): { readonly hash: string; readonly json: string } {
  const values = Object.values(shared);
  const key = values.find((value): value is object => typeof value === 'object' && value !== null);
  const known = key ? bodies.get(key) : undefined;
  if (known && known.values.length === values.length && known.values.every((value, index) => value === values[index])) return known.body;
  const json = JSON.stringify(shared);
  const body = { hash: sha256Hex(json), json };
  if (key) bodies.set(key, { values, body });
  return body;
}

/** The plan as createRun was given it: the run row's part with its body's keys put back. */
export function joinPlan(rest: unknown, body: unknown): unknown {
  if (!isRecord(body) || !isRecord(rest) || !isRecord(rest.explain)) return rest;
  return { ...rest, explain: { ...rest.explain, ...body } };
}
