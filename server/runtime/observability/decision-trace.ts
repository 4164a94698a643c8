/**
 * EXPLAIN and SIMULATE as traces: they decide (a plan, a quote) without running, so no run record
 * holds their spans; they go to the exporters only (TraceSinkPlugin.exportOnly). A failing
 * exporter never fails the answer the caller asked for.
 */
import { randomUUID } from 'node:crypto';
import type { TraceSinkPlugin } from '../contracts/trace-sink';
import type { PlannedRequest } from '../facade/plan-request';
import { tracePlanning } from './plan-trace';
import { RunTracer } from './run-tracer';

export async function traceDecision(sink: TraceSinkPlugin, planned: PlannedRequest, operation: 'explain' | 'simulate', attributes: Record<string, unknown> = {}): Promise<void> {
  if (!sink.exportOnly) return;
  const tracer = new RunTracer(randomUUID(), sink, { transient: true });
  tracePlanning(tracer, planned, operation, { goal: planned.request.goal }).end({ attributes });
  await tracer.flush().catch((error: unknown) => console.warn(`${operation}: spans were not exported: ${error instanceof Error ? error.message : String(error)}`));
}
