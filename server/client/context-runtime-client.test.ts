/**
 * The typed HTTP API v1 client against the real routes on a loopback port (the same handlers the
 * Next.js route files serve), on the real runtime (embedded PGlite, demo corpus), with real API
 * keys: each method's answer, the key's role and source scope, and failures as typed errors.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiKeyStore } from '../auth/api-key-store';
import { resolvePrincipal } from '../auth/request-principal';
import { UserStore } from '../auth/user-store';
import { DEMO_QUESTION } from '../ingest/demo-corpus';
import { openRuntimeFixture, type RuntimeFixture } from '../testing/runtime-fixture';
import { startV1ApiServer } from '../testing/v1-api-server';
import { ContextRuntimeApiError } from './api-error';
import type { RunStreamEvent } from './client-types';
import { ContextRuntimeClient } from './context-runtime-client';

let fixture: RuntimeFixture;
let server: Awaited<ReturnType<typeof startV1ApiServer>>;
const clients = {} as Record<'viewer' | 'operator' | 'logsOnly' | 'unknown', ContextRuntimeClient>;

beforeAll(async () => {
  fixture = await openRuntimeFixture();
  const store = new ApiKeyStore(fixture.database);
  const sources = (await fixture.runtime.sources()).map((source) => source.name);
  const key = async (role: string, scope?: string[]) => (await store.create({ name: `${role} key`, role, sources: scope, createdBy: 'root@example.com' }, sources)).key;
  server = await startV1ApiServer({
    runtime: async () => fixture.runtime,
    principal: (headers) => resolvePrincipal(headers, { secret: () => 'unused', users: async () => new UserStore(fixture.database), isServiceToken: () => false, apiKeys: async () => store }),
  });
  const client = (apiKey: string) => new ContextRuntimeClient({ baseUrl: `${server.url}/`, apiKey });
  clients.viewer = client(await key('viewer'));
  clients.operator = client(await key('operator'));
  clients.logsOnly = client(await key('admin', ['demo-logs']));
  clients.unknown = client('crk_00000000_not-a-real-key');
}, 300_000);

afterAll(async () => {
  await server?.close();
  await fixture?.close();
});

/** The error a call rejects with; fails the test when it resolves. */
async function refusal(call: Promise<unknown>): Promise<ContextRuntimeApiError> {
  const error = await call.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(ContextRuntimeApiError);
  return error as ContextRuntimeApiError;
}

describe('ContextRuntimeClient over the HTTP API v1', () => {
  it('runs a goal to a cited answer, which a viewer then reads and a key scoped to other sources cannot', async () => {
    const result = await clients.operator.run({ goal: DEMO_QUESTION });
    expect(result.status).toBe('completed');
    expect(result.answer).toMatch(/\[\d+\]/);
    expect(result.citations.length).toBeGreaterThan(0);
    expect(result.citations[0]).toMatchObject({ ref: expect.any(Number), sourceName: expect.stringMatching(/^demo-/) });
    expect(await clients.viewer.getRun(result.runId)).toMatchObject({ runId: result.runId, answer: result.answer });
    expect(await refusal(clients.logsOnly.getRun(result.runId))).toMatchObject({ status: 404, code: 'NOT_FOUND', field: 'runId' });
  });

  it('submits without waiting and follows the events to the result; lastEventId resumes after an event', async () => {
    const accepted = await clients.operator.submit({ goal: DEMO_QUESTION });
    expect(accepted).toMatchObject({ runId: expect.any(String), status: 'running' });
    const events: RunStreamEvent[] = [];
    for await (const event of clients.operator.events(accepted.runId)) events.push(event);
    expect(events[0]).toMatchObject({ type: 'progress', id: '1', event: { type: 'run_started', runId: accepted.runId } });
    const last = events.at(-1)!;
    expect(last.type).toBe('result');
    if (last.type === 'result') expect(last.result).toMatchObject({ runId: accepted.runId, status: 'completed' });
    const resumed: RunStreamEvent[] = [];
    for await (const event of clients.operator.events(accepted.runId, { lastEventId: '2' })) resumed.push(event);
    expect(resumed.map((event) => event.id)).toEqual(events.slice(2).map((event) => event.id));
  });

  it('explains, simulates and builds a context within the budget, scoped to the key’s sources', async () => {
    const explained = await clients.operator.explain({ goal: DEMO_QUESTION });
    expect(explained.graph.nodes.length).toBeGreaterThan(0);
    expect(await clients.operator.simulate({ goal: DEMO_QUESTION })).toMatchObject({ planHash: explained.planHash, expectedModels: expect.any(Array) });
    const context = await clients.operator.buildContext({ goal: DEMO_QUESTION, tokenBudget: 800 });
    expect(context.passages.length).toBeGreaterThan(0);
    expect(context.tokens).toBeLessThanOrEqual(800);
    const scoped = await clients.logsOnly.buildContext({ goal: DEMO_QUESTION });
    expect(new Set(scoped.passages.map((passage) => passage.sourceName))).toEqual(new Set(['demo-logs']));
    expect(await clients.viewer.openApi()).toMatchObject({ openapi: expect.stringMatching(/^3\./) });
  });

  it('throws the API’s refusals as typed errors: no key, too low a role, bad input naming the field', async () => {
    expect(await refusal(clients.unknown.simulate({ goal: DEMO_QUESTION }))).toMatchObject({ status: 401, code: 'UNAUTHORIZED' });
    expect(await refusal(clients.viewer.run({ goal: DEMO_QUESTION }))).toMatchObject({ status: 403, code: 'FORBIDDEN', message: 'requires the operator role' });
    expect(await refusal(clients.operator.buildContext({ goal: DEMO_QUESTION, tokenBudget: 0 }))).toMatchObject({ status: 400, code: 'INVALID_INPUT', field: 'tokenBudget' });
    expect(await refusal(clients.operator.run({ goal: DEMO_QUESTION, constraints: { max_cost_usd: -1 } }))).toMatchObject({ status: 400, field: 'constraints.max_cost_usd' });
    expect(await refusal(clients.viewer.events('no-such-run').next())).toMatchObject({ status: 404, code: 'NOT_FOUND' });
  });
});

describe('ContextRuntimeClient against something that is not the API', () => {
  const answering = (response: () => Response) => new ContextRuntimeClient({ baseUrl: 'http://127.0.0.1:9', apiKey: 'crk_x', fetch: async () => response() });

  it('names the status of a page that is not an API error, and a 200 body that is not the route’s shape', async () => {
    expect(await refusal(answering(() => new Response('<html>Bad gateway</html>', { status: 502 })).simulate({ goal: 'x' }))).toMatchObject({ status: 502, code: 'HTTP_ERROR' });
    const unreadable = await refusal(answering(() => Response.json({ runId: 'r1' })).getRun('r1'));
    expect(unreadable).toMatchObject({ status: 0, code: 'UNEXPECTED_RESPONSE' });
    expect(unreadable.message).toMatch(/GET \/api\/v1\/runs\/r1 answered a body this client cannot read \(status: /);
  });

  it('refuses a base URL that is not absolute and a missing key, naming the option', () => {
    expect(() => new ContextRuntimeClient({ baseUrl: 'localhost:3000/x y', apiKey: 'k' })).toThrow(/^baseUrl: /);
    expect(() => new ContextRuntimeClient({ baseUrl: 'http://localhost:3000', apiKey: '' })).toThrow(/^apiKey: /);
  });
});
