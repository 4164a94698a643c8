/**
 * Collects a run's spans (planner decisions, node executions, model calls) and writes them to
 * the TraceSink in one batch per phase, so a trace is either there or not — never half a tree.
 */
import { randomUUID } from 'node:crypto';
import { SENSITIVE_SPAN_ATTRIBUTE, type Span, type TraceSinkPlugin } from '../contracts/trace-sink';

export interface OpenSpan {
  readonly id: string;
  /** Closes the span; later calls are ignored. */
  end(fields?: { tokens?: number; costUsd?: number; status?: 'ok' | 'error'; attributes?: Record<string, unknown> }): Span;
}

/** How often a running run's spans are written at most (checkpoints; the run's end always writes): the default delay of OpenTelemetry's batch span processor is 5 s. */
export const SPAN_BATCH_INTERVAL_MS = 1000;

export class RunTracer {
  private readonly pending: Span[] = [];
  private sensitive = false;
  /** The write under way, and the one that will take what is pending when it ends (see flush). */
  private inFlight: Promise<void> | undefined;
  private queued: Promise<void> | undefined;
  /** When spans were last taken for a write (the tracer's start before the first): what flushBatched measures from. */
  private lastTakenAtMs = Date.now();

  /** `transient`: the spans of an EXPLAIN or SIMULATE, which has no run record: exported, not stored. */
  constructor(
    readonly runId: string,
    private readonly sink: TraceSinkPlugin | undefined,
    private readonly options: { readonly transient?: boolean } = {},
  ) {}

  /** The policy keeps this run local: every span flushed from now on (pending ones too) says so. */
  markSensitive(): void {
    this.sensitive = true;
  }

  /** Opens a span; top-level spans (the run, planner stages) have no parent. */
  start(name: string, category: string, parentId?: string, attributes: Record<string, unknown> = {}): OpenSpan {
    const id = randomUUID();
    const started = Date.now();
    const startedHr = performance.now();
    let closed: Span | undefined;
    return {
      id,
      end: (fields = {}) => {
        if (closed) return closed;
        closed = {
          id,
          runId: this.runId,
          parentId,
          name,
          category,
          startedAt: new Date(started).toISOString(),
          endedAt: new Date().toISOString(),
          durationMs: performance.now() - startedHr,
          tokens: fields.tokens ?? 0,
          costUsd: fields.costUsd ?? 0,
          status: fields.status ?? 'ok',
          attributes: { ...attributes, ...(fields.attributes ?? {}) },
        };
        this.pending.push(closed);
        return closed;
      },
    };
  }

  /**
   * Records an already-measured span (e.g. a planner stage timed inside a pure function) and
   * returns its id, so children can hang off it. Without `startedAtMs` the span ends now. `fields.id`
   * is an id decided before the work ran (trace-parent.ts), which spans started inside it already name.
   */
  record(name: string, category: string, durationMs: number, attributes: Record<string, unknown> = {}, parentId?: string, fields: { tokens?: number; costUsd?: number; id?: string } = {}, startedAtMs?: number): string {
    const id = fields.id ?? randomUUID();
    const started = startedAtMs ?? Date.now() - durationMs;
    this.pending.push({
      id,
      runId: this.runId,
      parentId,
      name,
      category,
      startedAt: new Date(started).toISOString(),
      endedAt: new Date(started + durationMs).toISOString(),
      durationMs,
      tokens: fields.tokens ?? 0,
      costUsd: fields.costUsd ?? 0,
      status: 'ok',
      attributes,
    });
    return id;
  }

  /**
   * Writes the pending spans; resolves once they are stored. A flush called while another is still
   * writing joins the next batch: the nodes of a wave that finish during one INSERT share the next
   * one instead of queueing one each (bench:loc counted 9 span INSERTs, ~80 ms, per run). Each
   * caller still waits for its own spans, so per-node durability is unchanged.
   */
  flush(): Promise<void> {
    if (!this.sink) return Promise.resolve();
    if (this.queued) return this.queued;
    // Nothing left to take: this caller's spans, if any, are in the write under way.
    if (this.pending.length === 0) return this.inFlight ?? Promise.resolve();
    if (!this.inFlight) return this.writePending(this.sink);
    const sink = this.sink;
    const queued = this.inFlight
      .catch(() => undefined)
      .then(() => {
        this.queued = undefined;
        return this.writePending(sink);
      });
    this.queued = queued;
    return queued;
  }

  /**
   * A flush during a run (a checkpoint's), batched as a telemetry exporter batches: the pending
   * spans are written only when the last write took spans at least SPAN_BATCH_INTERVAL_MS ago.
   * A run shorter than that writes its spans once, at its end (bench:loc: 2 of a run's 16
   * statements were checkpoint span writes); a crash loses at most the spans of the last interval
   * (the node outcomes the checkpoint writes are not batched: what a resume needs is kept).
   */
  flushBatched(): Promise<void> {
    if (Date.now() - this.lastTakenAtMs < SPAN_BATCH_INTERVAL_MS) return Promise.resolve();
    return this.flush();
  }

  private writePending(sink: TraceSinkPlugin): Promise<void> {
    this.lastTakenAtMs = Date.now();
    const taken = this.pending.splice(0, this.pending.length);
    if (taken.length === 0) return Promise.resolve();
    const batch = this.sensitive ? taken.map((span) => ({ ...span, attributes: { ...span.attributes, [SENSITIVE_SPAN_ATTRIBUTE]: true } })) : taken;
    const write = (async () => {
      if (this.options.transient) await sink.exportOnly?.(batch);
      else await sink.write(batch);
    })();
    const tracked: Promise<void> = write.finally(() => {
      if (this.inFlight === tracked) this.inFlight = undefined;
    });
    this.inFlight = tracked;
    return tracked;
  }
}
