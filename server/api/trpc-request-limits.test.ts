/**
 * Issue 12, finding 6: the /api/trpc handler had no batch limit, no body cap, and nothing told a
 * rate-limited client when to come back. Driven over HTTP through the handler the route uses.
 */
import superjson from 'superjson';
import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../runtime/config/limits-schema';
import { ContextRuntimeError } from '../runtime/errors';
import type { RunResult } from '../runtime/explain/explain-types';
import { fakeRuntimePort } from './fake-runtime-port';
import type { ApiContext } from './init';
import type { RuntimePort } from './runtime-port';
import { apiLimitsOf, capRequestBody, handleTrpcRequest } from './trpc-request-limits';

const limits = DEFAULT_LIMITS.api;
const operator = (runtime: RuntimePort) => async (): Promise<ApiContext> => ({ runtime: async () => runtime, principal: { user: 'ada', roles: ['operator'] } });
const listing = fakeRuntimePort({ listRuns: async () => [] });

const post = (body: BodyInit, headers: Record<string, string> = {}) =>
  new Request('http://localhost/api/trpc/runtime.run', { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body, duplex: 'half' } as RequestInit);

describe('tRPC request limits', () => {
  it('refuses a batch of more procedures than limits.api.max_batch_size, and serves one within it', async () => {
    const batch = (size: number) => {
      const paths = Array.from({ length: size }, () => 'runtime.listRuns').join(',');
      const input = Object.fromEntries(Array.from({ length: size }, (_, index) => [index, superjson.serialize({ limit: 1 })]));
      return new Request(`http://localhost/api/trpc/${paths}?batch=1&input=${encodeURIComponent(JSON.stringify(input))}`);
    };
    const refused = await handleTrpcRequest(batch(limits.max_batch_size + 1), limits, operator(listing));
    expect(refused.status).toBe(400);
    expect(JSON.stringify(await refused.json())).toContain('Batch call exceeds maximum size');
    expect((await handleTrpcRequest(batch(limits.max_batch_size), limits, operator(listing))).status).toBe(200);
  });

  it('answers 413 for a body over limits.api.max_body_bytes, declared or streamed without a length', async () => {
    const big = JSON.stringify(superjson.serialize({ goal: 'x'.repeat(limits.max_body_bytes) }));
    const declared = await handleTrpcRequest(post(big), limits, operator(listing));
    expect(declared.status).toBe(413);
    expect(await declared.json()).toMatchObject({ error: { message: expect.stringContaining('limits.api.max_body_bytes') } });
    const chunk = new TextEncoder().encode('x'.repeat(64 * 1024));
    let sent = 0;
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        sent += chunk.byteLength;
        controller.enqueue(chunk);
      },
    });
    expect(await capRequestBody(post(endless), limits.max_body_bytes)).toMatchObject({ status: 413 });
    // It stopped reading soon after the cap rather than draining the stream.
    expect(sent).toBeLessThan(limits.max_body_bytes + 4 * chunk.byteLength);
  });

  it('passes a body within the cap through intact', async () => {
    const run = async (request: unknown) => ({ runId: 'r', status: 'completed', goal: (request as { goal: string }).goal }) as unknown as RunResult;
    const response = await handleTrpcRequest(post(JSON.stringify(superjson.serialize({ goal: 'why' }))), limits, operator(fakeRuntimePort({ run })));
    expect(response.status).toBe(200);
    expect(JSON.stringify(await response.json())).toContain('"goal":"why"');
  });

  it('maps RATE_LIMITED to 429 with Retry-After and the message', async () => {
    const run = async () => {
      throw new ContextRuntimeError('RATE_LIMITED', 'ada already has 4 runs executing (limit 4); wait for one to finish', { details: { retryAfterSeconds: 5 } });
    };
    const response = await handleTrpcRequest(post(JSON.stringify(superjson.serialize({ goal: 'why' }))), limits, operator(fakeRuntimePort({ run })));
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBe('5');
    expect(JSON.stringify(await response.json())).toContain('ada already has 4 runs executing');
  });

  it('uses the configured limits, or the defaults while the runtime cannot open', async () => {
    const configured = { ...DEFAULT_LIMITS, api: { max_batch_size: 2, max_body_bytes: 4096 } };
    expect(await apiLimitsOf(async () => ({ ...listing, config: { limits: configured } }))).toEqual({ max_batch_size: 2, max_body_bytes: 4096 });
    expect(await apiLimitsOf(() => Promise.reject(new Error('database locked')))).toEqual(DEFAULT_LIMITS.api);
  });
});
