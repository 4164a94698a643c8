/**
 * Replays finished runtime spans through a real OpenTelemetry SDK tracer, so the standard span
 * processors (OTLP batch export, Langfuse's) see ordinary SDK spans. The runtime measures spans
 * itself and flushes them per node, after the fact: each one is started with its recorded start
 * time, under its parent's W3C span context, and ended at its recorded end. Its ids come from the
 * runtime's (otel-span-attributes.ts) through a one-shot IdGenerator, since the SDK has no other
 * way to take an id.
 *
 * It also hands the AI SDK its tracer and, per model call, the context of the runtime node the
 * call runs in (contextForCall), so the SDK's own spans sit in the run's trace beneath that node.
 */
import { randomBytes } from 'node:crypto';
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, TraceFlags, context, trace, type Context, type Tracer } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import type { IdGenerator, SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { resourceFromAttributes } from '@opentelemetry/resources';
import type { Span } from '../../runtime/contracts/trace-sink';
import { currentTraceParent } from '../../runtime/observability/trace-parent';
import { TRACER_NAME, otelAttributesOf, otelNameOf, spanIdOf, traceIdOf } from './otel-span-attributes';

/**
 * Hands out the ids preset for the span being replayed (startSpan is synchronous: no interleaving),
 * each once; spans others start on the same tracer (the AI SDK's) get random ones.
 */
class PresetIdGenerator implements IdGenerator {
  private traceId?: string;
  private spanId?: string;
  preset(traceId: string, spanId: string): void {
    this.traceId = traceId;
    this.spanId = spanId;
  }
  generateTraceId(): string {
    const id = this.traceId ?? randomBytes(16).toString('hex');
    this.traceId = undefined;
    return id;
  }
  generateSpanId(): string {
    const id = this.spanId ?? randomBytes(8).toString('hex');
    this.spanId = undefined;
    return id;
  }
  /** A span with a parent takes only a span id: the preset trace id must not outlive it and land on the next root span. */
  clear(): void {
    this.traceId = undefined;
    this.spanId = undefined;
  }
}

/**
 * The AI SDK starts its spans under `context.active()`, which without a context manager is always
 * the empty root: each call became a trace of its own. One AsyncLocalStorage manager per process
 * (the standard Node one); when the host application registered its own first, that one serves.
 */
let contextManagerEnsured = false;
function ensureContextManager(): void {
  if (contextManagerEnsured) return;
  contextManagerEnsured = true;
  const manager = new AsyncLocalStorageContextManager();
  if (context.setGlobalContextManager(manager.enable())) return;
  manager.disable();
}

export class OtelSpanEmitter {
  private readonly ids = new PresetIdGenerator();
  private readonly provider: NodeTracerProvider;
  /** The SDK tracer, for AI SDK calls (`experimental_telemetry.tracer`). */
  readonly tracer: Tracer;

  constructor(processors: SpanProcessor[], serviceName = 'context-runtime') {
    this.provider = new NodeTracerProvider({ resource: resourceFromAttributes({ 'service.name': serviceName }), idGenerator: this.ids, spanProcessors: processors });
    this.tracer = this.provider.getTracer(TRACER_NAME);
    ensureContextManager();
  }

  /**
   * The context a model call starts its spans under: the runtime node it executes in (its W3C ids
   * derived as emit() derives them, so the node span exported later is the parent), or the active
   * context outside a traced node (ingest, OpenIE).
   */
  contextForCall(): Context {
    const parent = currentTraceParent();
    if (!parent) return context.active();
    return trace.setSpanContext(context.active(), { traceId: traceIdOf(parent.runId), spanId: spanIdOf(parent.spanId), traceFlags: TraceFlags.SAMPLED });
  }

  emit(spans: readonly Span[]): void {
    for (const span of spans) {
      const traceId = traceIdOf(span.runId);
      this.ids.preset(traceId, spanIdOf(span.id));
      const parent = span.parentId ? trace.setSpanContext(ROOT_CONTEXT, { traceId, spanId: spanIdOf(span.parentId), traceFlags: TraceFlags.SAMPLED }) : ROOT_CONTEXT;
      const started = Date.parse(span.startedAt);
      const otelSpan = this.tracer.startSpan(otelNameOf(span), { kind: span.category === 'model' ? SpanKind.CLIENT : SpanKind.INTERNAL, startTime: started, attributes: otelAttributesOf(span) }, parent);
      this.ids.clear();
      if (span.status === 'error') otelSpan.setStatus({ code: SpanStatusCode.ERROR });
      // The measured duration (performance.now()) is finer than the ISO end stamp's milliseconds.
      otelSpan.end(started + span.durationMs);
    }
  }

  /** Sends what the processors hold (tests; the CLI before it exits). */
  forceFlush(): Promise<void> {
    return this.provider.forceFlush();
  }

  shutdown(): Promise<void> {
    return this.provider.shutdown();
  }
}
