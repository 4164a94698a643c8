/**
 * The CLI with an API key (--api-key / CONTEXT_RUNTIME_API_KEY): over real HTTP to a loopback
 * server that resolves principals as app/api/trpc does, it acts as the key — its role and source
 * scope — and a refused key or a bad URL is named as such.
 */
import { createServer } from 'node:http';
import { fetchRequestHandler } from '@trpc/server/adapters/fetch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appRouter } from '../api/root-router';
import { fakeRuntimePort } from '../api/fake-runtime-port';
import type { ApiKeyRecord, ApiKeyStore } from '../auth/api-key-store';
import { resolvePrincipal } from '../auth/request-principal';
import type { RunResult } from '../runtime/explain/explain-types';
import type { Principal } from '../runtime/types';
import { listenOnLoopback, readBody } from '../testing/loopback-http';
import { parseCli } from './cli-arguments';
import { connectRuntime } from './connect-runtime';

const KEY = 'crk_0a1b2c3d_abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQ';
const record = { prefix: 'crk_0a1b2c3d', role: 'operator', sources: ['demo-logs'] } as unknown as ApiKeyRecord;
const keys = { resolve: async (key: string) => (key === KEY ? record : undefined) } as unknown as ApiKeyStore;
const asked: (Principal | undefined)[] = [];
const completed = { runId: 'run-1', status: 'completed', citations: [], caveats: [] } as unknown as RunResult;
// The CLI submits, then follows the run by id (getRun), each call as the key.
const runtime = fakeRuntimePort({
  run: async (request) => (asked.push(request.principal), completed),
  getRun: async (_runId, principal) => (asked.push(principal), { run: completed, spans: [] }),
});
let server: Awaited<ReturnType<typeof listenOnLoopback>>;
let url = '';

beforeAll(async () => {
  const http = createServer(async (incoming, outgoing) => {
    const body = incoming.method === 'POST' ? await readBody(incoming) : undefined;
    const request = new Request(`http://127.0.0.1${incoming.url}`, { method: incoming.method, headers: incoming.headers as Record<string, string>, body });
    const response = await fetchRequestHandler({
      endpoint: '/api/trpc',
      req: request,
      router: appRouter,
      createContext: async () => {
        const principal = await resolvePrincipal(request.headers, { secret: () => 'unused', users: () => Promise.reject(new Error('no cookies here')), isServiceToken: () => false, apiKeys: async () => keys });
        return { runtime: async () => runtime, ...(principal ? { principal } : {}) };
      },
    });
    outgoing.writeHead(response.status, Object.fromEntries(response.headers));
    outgoing.end(await response.text());
  });
  server = await listenOnLoopback(http);
  url = new URL(server.baseURL).origin;
});

afterAll(() => server?.close());

describe('the CLI with an API key', () => {
  it('reads --api-key and --url', () => {
    expect(parseCli(['run', 'goal', '--api-key', KEY, '--url', 'http://h:1'])).toMatchObject({ apiKey: KEY, url: 'http://h:1' });
  });

  it("runs a goal on the server as the key: the key's role and source scope, not the CLI's admin", async () => {
    const client = await connectRuntime(undefined, { apiKey: KEY, url: `${url}/` });
    expect(client.via).toBe(url);
    expect(await client.run({ goal: 'Why did checkout-api fail?' })).toMatchObject({ runId: 'run-1' });
    expect(asked.at(-1)).toEqual({ user: 'api-key:crk_0a1b2c3d', roles: ['operator'], sourceScope: ['demo-logs'] });
  });

  it('names the key when the server refuses it, and the URL when it is not one', async () => {
    const refused = await connectRuntime(undefined, { apiKey: `${KEY.slice(0, -1)}x`, url });
    await expect(refused.run({ goal: 'x' })).rejects.toMatchObject({ code: 'INVALID_INPUT', field: '--api-key', message: expect.stringContaining('unknown or revoked') });
    await expect(connectRuntime(undefined, { apiKey: KEY, url: 'ftp://nowhere' })).rejects.toMatchObject({ field: '--url' });
  });
});
