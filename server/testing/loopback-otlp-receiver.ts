/**
 * A loopback OTLP/HTTP collector for tests: it accepts what the real exporters POST (JSON encoding,
 * as @opentelemetry/exporter-trace-otlp-http and @langfuse/otel send it), keeps each request's
 * headers and raw body, and decodes the spans into a flat list with plain attribute values.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import { listenOnLoopback, readBody, writeJson } from './loopback-http';

export interface ReceivedSpan {
  readonly traceId: string;
  readonly spanId: string;
  readonly parentSpanId?: string;
  readonly name: string;
  readonly scope: string;
  readonly attributes: Readonly<Record<string, unknown>>;
}

export interface OtlpReceiver {
  /** Base URL (no path): the exporter's endpoint or Langfuse's base_url. */
  readonly url: string;
  readonly requests: readonly { readonly path: string; readonly headers: IncomingHttpHeaders; readonly body: string }[];
  spans(): readonly ReceivedSpan[];
  close(): Promise<void>;
}

interface AnyValue {
  stringValue?: string;
  boolValue?: boolean;
  intValue?: number | string;
  doubleValue?: number;
  arrayValue?: { values?: AnyValue[] };
}

function plain(value: AnyValue): unknown {
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.boolValue !== undefined) return value.boolValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.doubleValue !== undefined) return value.doubleValue;
  if (value.arrayValue) return (value.arrayValue.values ?? []).map(plain);
  return undefined;
}

interface ExportRequest {
  resourceSpans?: { scopeSpans?: { scope?: { name?: string }; spans?: { traceId: string; spanId: string; parentSpanId?: string; name: string; attributes?: { key: string; value: AnyValue }[] }[] }[] }[];
}

export async function startOtlpReceiver(tracesPath: string): Promise<OtlpReceiver> {
  const requests: { path: string; headers: IncomingHttpHeaders; body: string }[] = [];
  const server = createServer(async (request, response) => {
    const body = await readBody(request);
    if (request.method !== 'POST' || request.url !== tracesPath) return writeJson(response, 404, { error: `no route ${request.method} ${request.url}` });
    requests.push({ path: request.url, headers: request.headers, body });
    writeJson(response, 200, {});
  });
  const listening = await listenOnLoopback(server);
  return {
    url: listening.baseURL.replace(/\/v1$/, ''),
    requests,
    spans() {
      return requests.flatMap((request) =>
        ((JSON.parse(request.body) as ExportRequest).resourceSpans ?? []).flatMap((resource) =>
          (resource.scopeSpans ?? []).flatMap((scope) =>
            (scope.spans ?? []).map((span) => ({
              traceId: span.traceId,
              spanId: span.spanId,
              ...(span.parentSpanId ? { parentSpanId: span.parentSpanId } : {}),
              name: span.name,
              scope: scope.scope?.name ?? '',
              attributes: Object.fromEntries((span.attributes ?? []).map((attribute) => [attribute.key, plain(attribute.value)])),
            })),
          ),
        ),
      );
    },
    close: listening.close,
  };
}
