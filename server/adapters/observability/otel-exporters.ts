/**
 * The span processors the settings ask for: a batching OTLP/HTTP (JSON) exporter to any collector,
 * and Langfuse's own processor, which exports OTLP to `${base_url}/api/public/otel/v1/traces` with
 * basic auth. Langfuse by default keeps only LLM spans; here every span of the runtime's tracer
 * goes too, since the planner's decisions are the point of the trace.
 */
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { BatchSpanProcessor, type SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { LangfuseSpanProcessor, isDefaultExportSpan } from '@langfuse/otel';
import type { ObservabilitySettings } from './observability-settings';
import { TRACER_NAME } from './otel-span-attributes';
import { OtelSpanEmitter } from './otel-span-emitter';

export function createSpanProcessors(settings: ObservabilitySettings): SpanProcessor[] {
  const processors: SpanProcessor[] = [];
  if (settings.otlp) processors.push(new BatchSpanProcessor(new OTLPTraceExporter({ url: settings.otlp.url, headers: { ...settings.otlp.headers } })));
  if (settings.langfuse) {
    processors.push(
      new LangfuseSpanProcessor({
        baseUrl: settings.langfuse.baseUrl,
        publicKey: settings.langfuse.publicKey,
        secretKey: settings.langfuse.secretKey,
        shouldExportSpan: ({ otelSpan }) => otelSpan.instrumentationScope.name === TRACER_NAME || isDefaultExportSpan(otelSpan),
      }),
    );
  }
  return processors;
}

/** Undefined when nothing is configured: then no SDK is started at all. */
export function createSpanEmitter(settings: ObservabilitySettings | undefined): OtelSpanEmitter | undefined {
  return settings ? new OtelSpanEmitter(createSpanProcessors(settings)) : undefined;
}
