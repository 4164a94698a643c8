/**
 * Caps in front of tRPC (config `limits.api`; issue 12, finding 6): a request body larger than
 * `max_body_bytes` is refused with 413 before it is parsed, a batch of more than `max_batch_size`
 * procedures is refused by tRPC itself, and a RATE_LIMITED answer carries `Retry-After`.
 * Without them one request could make the server buffer and parse any amount of JSON, or run
 * hundreds of procedures (each maybe a run) at once.
 */
import { fetchRequestHandler } from '@trpc/server/adapters/fetch';
import { DEFAULT_LIMITS, type LimitsConfig } from '../runtime/config/limits-schema';
import { isContextRuntimeError } from '../runtime/errors';
import type { ApiContext } from './init';
import { appRouter } from './root-router';
import type { RuntimePort } from './runtime-port';

const tooLarge = (maxBytes: number) =>
  Response.json(
    { error: { message: `request body: larger than the ${maxBytes}-byte limit (limits.api.max_body_bytes)`, code: 'PAYLOAD_TOO_LARGE' } },
    { status: 413, headers: { connection: 'close' } },
  );

/** The request with its body read under the cap, or a 413 response. Content-Length is not trusted alone: a chunked body has none. */
export async function capRequestBody(request: Request, maxBytes: number): Promise<Request | Response> {
  const declared = Number(request.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) return tooLarge(maxBytes);
  if (!request.body) return request;
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let received = 0;
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    received += read.value.byteLength;
    if (received > maxBytes) {
      await reader.cancel().catch(() => undefined);
      return tooLarge(maxBytes);
    }
    chunks.push(read.value);
  }
  return new Request(request.url, { method: request.method, headers: request.headers, body: Buffer.concat(chunks), signal: request.signal });
}

/** The configured caps; the defaults while the runtime cannot open (its procedures then answer why). */
export function apiLimitsOf(runtime: () => Promise<RuntimePort>): Promise<LimitsConfig['api']> {
  return runtime().then(
    (opened) => opened.config.limits.api,
    () => DEFAULT_LIMITS.api,
  );
}

/** Handles one /api/trpc request under `limits`. */
export async function handleTrpcRequest(request: Request, limits: LimitsConfig['api'], createContext: () => Promise<ApiContext>): Promise<Response> {
  const capped = await capRequestBody(request, limits.max_body_bytes);
  if (capped instanceof Response) return capped;
  return fetchRequestHandler({
    endpoint: '/api/trpc',
    req: capped,
    router: appRouter,
    createContext,
    maxBatchSize: limits.max_batch_size,
    responseMeta: ({ errors }) => {
      const waits = errors.map((error) => (isContextRuntimeError(error.cause) && error.cause.code === 'RATE_LIMITED' ? Number(error.cause.details.retryAfterSeconds) : NaN)).filter(Number.isFinite);
      return waits.length > 0 ? { headers: { 'retry-after': String(Math.max(...waits)) } } : {};
    },
  });
}
