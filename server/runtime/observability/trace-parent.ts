/**
 * The runtime span a piece of work executes under (one attempt of a run's node), carried through
 * its async calls. An adapter with telemetry of its own — the AI SDK's spans of a model call —
 * reads it to join the run's trace beneath that node, without the runtime importing OpenTelemetry
 * and without every plugin contract growing a trace argument (issue 14, point 1: the AI SDK's
 * spans landed in traces of their own).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { NodeExecutor } from '../contracts/scheduler';

export interface TraceParent {
  /** The run (or transient decision trace) the span belongs to: its trace. */
  readonly runId: string;
  /** The runtime span id (Span.id) the work's own spans hang under. */
  readonly spanId: string;
}

/**
 * One store per process, under a registered symbol: Next.js may bundle the runtime more than once
 * (see RUNTIME_ERROR_MARK in errors.ts), and a node run by one copy must be seen by the model
 * adapter of another.
 */
const STORE_KEY = Symbol.for('context-runtime.trace-parent');
const holder = globalThis as typeof globalThis & { [STORE_KEY]?: AsyncLocalStorage<TraceParent> };
const current = (holder[STORE_KEY] ??= new AsyncLocalStorage<TraceParent>());

/** Runs `work` with `parent` as the span any telemetry started inside it belongs under. */
export function withTraceParent<T>(parent: TraceParent, work: () => T): T {
  return current.run(parent, work);
}

/** The span now executing, if any (undefined outside a traced node: ingest, OpenIE, a test). */
export function currentTraceParent(): TraceParent | undefined {
  return current.getStore();
}

/**
 * Span ids decided before each node attempt runs, so the work inside can name its parent while the
 * node's own span is recorded only when the attempt has ended (with its measured actuals).
 */
export class NodeSpanIds {
  private readonly ids = new Map<string, string>();

  constructor(private readonly runId: string) {}

  /** The executor, each attempt run under a fresh span id that `of(node, attempt)` then returns. */
  wrap(executor: NodeExecutor): NodeExecutor {
    return (node, context) => {
      const spanId = randomUUID();
      this.ids.set(`${node.id}#${context.attempt}`, spanId);
      return withTraceParent({ runId: this.runId, spanId }, () => executor(node, context));
    };
  }

  /** The id the attempt ran under; undefined for a node that never ran here (a recorded outcome, a skip). */
  of(nodeId: string, attempt: number): string | undefined {
    return this.ids.get(`${nodeId}#${attempt}`);
  }
}
