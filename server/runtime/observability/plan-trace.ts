/**
 * The planner's decision as spans: one root span (`plan` before a run, or `explain` / `simulate` /
 * `build_context`, which make no run) with a child per planner stage and one for the chosen
 * candidate. A run, an EXPLAIN, a SIMULATE and a build_context of the same goal therefore show the
 * same planning tree in a trace viewer.
 */
import type { ExplainResult } from '../explain/explain-types';
import { rejectedCount } from '../explain/stored-explain';
import type { PlannedRequest } from '../facade/plan-request';
import type { OpenSpan, RunTracer } from './run-tracer';

/** The policy keeps this plan on local models (a sensitive goal, or a permitted source marked sensitive). */
export function isSensitivePlan(explain: ExplainResult): boolean {
  return explain.intent.classes.includes('sensitive') || explain.graph.nodes.some((node) => node.kind === 'reason' && node.localOnly);
}

export type PlanningOperation = 'plan' | 'explain' | 'simulate' | 'build_context';

/** Opens the root span, records the stages under it and returns it open, for the caller to end. */
export function tracePlanning(tracer: RunTracer, planned: PlannedRequest, operation: PlanningOperation, attributes: Record<string, unknown> = {}): OpenSpan {
  const { explain } = planned;
  if (isSensitivePlan(explain)) tracer.markSensitive();
  const root = tracer.start(operation, operation === 'plan' ? 'planner' : operation, undefined, { ...attributes, planHash: explain.planHash, planCache: explain.planCache.status, intent: explain.intent.primary });
  for (const [name, durationMs] of Object.entries(planned.timings)) {
    tracer.record(name, 'planner', durationMs, name === 'planner.plan_cache' ? { status: explain.planCache.status } : {}, root.id);
  }
  tracer.record(
    'planner.chosen',
    'planner',
    0,
    {
      candidate: explain.chosen.id,
      description: explain.chosen.description,
      planHash: explain.planHash,
      enumerated: explain.enumerated,
      rejected: rejectedCount(explain),
      estimatedTokens: explain.estimates.tokens.value,
      estimatedCostUsd: explain.estimates.costUsd.value,
      estimatedLatencySeconds: explain.estimates.latencySeconds.value,
    },
    root.id,
  );
  return root;
}
