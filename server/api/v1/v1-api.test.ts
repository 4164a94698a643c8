/**
 * The HTTP API v1 over real HTTP (fetch against the route handlers on a loopback port), on the real
 * runtime (embedded PGlite, demo corpus) with real API keys: roles, source scopes and revocation
 * decided by the same checks as the app; bad input answered 4xx naming the field.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiKeyStore } from '../../auth/api-key-store';
import { resolvePrincipal } from '../../auth/request-principal';
import { UserStore } from '../../auth/user-store';
import { DEMO_QUESTION } from '../../ingest/demo-corpus';
import { openRuntimeFixture, type RuntimeFixture } from '../../testing/runtime-fixture';
import { startV1ApiServer } from '../../testing/v1-api-server';

let fixture: RuntimeFixture;
let server: Awaited<ReturnType<typeof startV1ApiServer>>;
const keys = { viewer: '', operator: '', otherOperator: '', admin: '', logsOnly: '', revoked: '' };
const HIGH_RISK_GOAL = 'Roll back the production deployment of checkout-api and delete the failed replica set';

async function call(method: string, path: string, key: string | undefined, body?: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

beforeAll(async () => {
  fixture = await openRuntimeFixture();
  const store = new ApiKeyStore(fixture.database);
  const sources = (await fixture.runtime.sources()).map((source) => source.name);
  const create = async (role: string, scope?: string[]) => (await store.create({ name: `${role} key`, role, sources: scope, createdBy: 'root@example.com' }, sources)).key;
  keys.viewer = await create('viewer');
  keys.operator = await create('operator');
  keys.otherOperator = (await store.create({ name: 'second operator key', role: 'operator', createdBy: 'root@example.com' }, sources)).key;
  keys.admin = await create('admin');
  keys.logsOnly = await create('admin', ['demo-logs']);
  const revoked = await store.create({ name: 'old', role: 'admin', createdBy: 'root@example.com' }, sources);
  await store.revoke(revoked.record.id);
  keys.revoked = revoked.key;
  server = await startV1ApiServer({
    runtime: async () => fixture.runtime,
    principal: (headers) => resolvePrincipal(headers, { secret: () => 'unused', users: async () => new UserStore(fixture.database), isServiceToken: () => false, apiKeys: async () => store }),
  });
}, 120_000);

afterAll(async () => {
  await server?.close();
  await fixture?.close();
});

describe('HTTP API v1: keys and roles', () => {
  it('answers 401 without a key, with an unknown key and with a revoked key', async () => {
    for (const key of [undefined, 'crk_00000000_not-a-real-key', keys.revoked]) {
      const { status, json } = await call('POST', '/api/v1/simulate', key, { goal: DEMO_QUESTION });
      expect(status).toBe(401);
      expect(json.error).toMatchObject({ code: 'UNAUTHORIZED', field: null });
    }
  });

  it('lets a viewer key read but not run (403 before anything is planned)', async () => {
    const runsBefore = await fixture.count('runs');
    const refused = await call('POST', '/api/v1/runs', keys.viewer, { goal: DEMO_QUESTION, wait: true });
    expect(refused.status).toBe(403);
    expect(refused.json.error).toMatchObject({ code: 'FORBIDDEN', message: 'requires the operator role' });
    expect(await fixture.count('runs')).toBe(runsBefore);
  });

  it('runs a goal to the end with wait: true, and any reader of its sources may then read it', async () => {
    const { status, json } = await call('POST', '/api/v1/runs', keys.operator, { goal: DEMO_QUESTION, wait: true });
    expect(status).toBe(200);
    expect(json).toMatchObject({ status: 'completed' });
    expect((json.citations as unknown[]).length).toBeGreaterThan(0);
    const read = await call('GET', `/api/v1/runs/${json.runId as string}`, keys.viewer);
    expect(read.status).toBe(200);
    expect(read.json).toMatchObject({ runId: json.runId, status: 'completed', answer: json.answer });
    // The run drew from every demo source: a key scoped to the logs may not learn it exists.
    const scoped = await call('GET', `/api/v1/runs/${json.runId as string}`, keys.logsOnly);
    expect(scoped.status).toBe(404);
    expect(scoped.json.error).toMatchObject({ code: 'NOT_FOUND', field: 'runId' });
  });

  it('keeps a source-scoped key to its sources when building context, and stores no run doing it', async () => {
    const runsBefore = await fixture.count('runs');
    const whole = await call('POST', '/api/v1/build-context', keys.admin, { goal: DEMO_QUESTION, tokenBudget: 1500 });
    expect(whole.status).toBe(200);
    const passages = whole.json.passages as { ref: number; sourceName: string; tokens: number; text: string; chunkId: string }[];
    expect(new Set(passages.map((passage) => passage.sourceName)).size).toBeGreaterThan(1);
    expect(passages.map((passage) => passage.ref)).toEqual(passages.map((_passage, index) => index + 1));
    expect(passages.reduce((sum, passage) => sum + passage.tokens, 0)).toBeLessThanOrEqual(1500);
    expect(whole.json.tokens).toBeLessThanOrEqual(1500);
    const scoped = await call('POST', '/api/v1/build-context', keys.logsOnly, { goal: DEMO_QUESTION });
    expect(scoped.status).toBe(200);
    const scopedPassages = scoped.json.passages as { sourceName: string; text: string }[];
    expect(scopedPassages.length).toBeGreaterThan(0);
    expect(new Set(scopedPassages.map((passage) => passage.sourceName))).toEqual(new Set(['demo-logs']));
    const otherText = passages.filter((passage) => passage.sourceName !== 'demo-logs').map((passage) => passage.text);
    for (const text of otherText) expect(JSON.stringify(scoped.json)).not.toContain(text);
    // Asking for a source outside the scope by name is refused by the same policy, not served.
    const asked = await call('POST', '/api/v1/build-context', keys.logsOnly, { goal: DEMO_QUESTION, sources: ['demo-docs'] });
    expect(JSON.stringify(asked.json)).not.toContain('"sourceName":"demo-docs"');
    expect(await fixture.count('runs')).toBe(runsBefore);
  });

  it('explains and simulates for an operator key', async () => {
    const explained = await call('POST', '/api/v1/explain', keys.operator, { goal: DEMO_QUESTION });
    expect(explained.status).toBe(200);
    expect(explained.json).toMatchObject({ goal: DEMO_QUESTION, planHash: expect.any(String) });
    const simulated = await call('POST', '/api/v1/simulate', keys.operator, { goal: DEMO_QUESTION });
    expect(simulated.status).toBe(200);
    expect(simulated.json).toMatchObject({ planHash: explained.json.planHash, basedOnSamples: expect.any(Number) });
  });
});

describe('HTTP API v1: cancelling a run', () => {
  it("cancels a run waiting at its approval gate for the key that started it (another operator's key finds no such run); an ended run is a 409", async () => {
    const gated = await call('POST', '/api/v1/runs', keys.operator, { goal: HIGH_RISK_GOAL, wait: true });
    expect(gated.json).toMatchObject({ status: 'awaiting_approval' });
    const runId = gated.json.runId as string;
    // Another operator may not even read a run paused at its gate: not found, as for a read.
    const other = await call('POST', `/api/v1/runs/${runId}/cancel`, keys.otherOperator);
    expect(other.status).toBe(404);
    expect(other.json.error).toMatchObject({ code: 'NOT_FOUND', field: 'runId' });
    const viewer = await call('POST', `/api/v1/runs/${runId}/cancel`, keys.viewer);
    expect(viewer.status).toBe(403);
    const cancelled = await call('POST', `/api/v1/runs/${runId}/cancel`, keys.operator);
    expect(cancelled.status).toBe(200);
    expect(cancelled.json).toMatchObject({ runId, status: 'cancelled' });
    expect((await call('GET', `/api/v1/runs/${runId}`, keys.operator)).json).toMatchObject({ status: 'cancelled' });
    const again = await call('POST', `/api/v1/runs/${runId}/cancel`, keys.admin);
    expect(again.status).toBe(409);
    expect(again.json.error).toMatchObject({ code: 'CONFLICT', field: 'runId', message: `run ${runId} has already ended (status cancelled)` });
    expect((await call('POST', '/api/v1/runs/no-such-run/cancel', keys.admin)).status).toBe(404);
  });
});

describe('HTTP API v1: bad input is a 4xx naming the field', () => {
  const cases: [string, unknown, string, string][] = [
    ['a missing goal', {}, 'INVALID_INPUT', 'goal'],
    ['an unknown field', { goal: 'x', colour: 'red' }, 'INVALID_INPUT', 'colour'],
    ['a wrong type', { goal: 'x', wait: 'yes' }, 'INVALID_INPUT', 'wait'],
    ['a bad constraint', { goal: DEMO_QUESTION, constraints: { max_cost_usd: -1 } }, 'INVALID_INPUT', 'constraints.max_cost_usd'],
    ['an unknown source', { goal: DEMO_QUESTION, sources: ['nowhere'] }, 'UNKNOWN_SOURCE', 'sources'],
    ['a body that is not JSON', '{"goal": ', 'INVALID_INPUT', 'body'],
  ];
  it.each(cases)('%s', async (_name, body, code, field) => {
    const { status, json } = await call('POST', '/api/v1/runs', keys.operator, body);
    expect(status).toBe(400);
    expect(json.error).toMatchObject({ code, field });
    expect(JSON.stringify(json)).not.toMatch(/at .*\.ts:\d+/);
  });

  it('refuses a token budget out of range, and an unknown run id is a 404', async () => {
    const budget = await call('POST', '/api/v1/build-context', keys.operator, { goal: DEMO_QUESTION, tokenBudget: 0 });
    expect(budget.status).toBe(400);
    expect(budget.json.error).toMatchObject({ field: 'tokenBudget' });
    const missing = await call('GET', '/api/v1/runs/no-such-run', keys.admin);
    expect(missing.status).toBe(404);
  });
});

/** Reads a text/event-stream to its end: each frame's id, event name and parsed data. */
async function readEvents(path: string, key: string, lastEventId?: string): Promise<{ status: number; contentType: string | null; events: { id: string; event: string; data: { type: string; event?: { type: string }; result?: { status: string } } }[] }> {
  const response = await fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${key}`, accept: 'text/event-stream', ...(lastEventId ? { 'last-event-id': lastEventId } : {}) } });
  const text = await response.text();
  const events = text
    .split('\n\n')
    .filter((frame) => frame.trim() !== '')
    .map((frame) => {
      const fields = Object.fromEntries(frame.split('\n').map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 2)]));
      return { id: fields.id ?? '', event: fields.event ?? 'message', data: JSON.parse(fields.data ?? 'null') as { type: string } };
    });
  return { status: response.status, contentType: response.headers.get('content-type'), events };
}

describe('HTTP API v1: progress as server-sent events', () => {
  it('answers 202 with the run id, then streams every node and the result; Last-Event-ID resumes after it', async () => {
    const started = await call('POST', '/api/v1/runs', keys.operator, { goal: DEMO_QUESTION });
    expect(started.status).toBe(202);
    expect(started.json).toMatchObject({ runId: expect.any(String), status: 'running', events: `/api/v1/runs/${started.json.runId as string}/events` });
    const stream = await readEvents(started.json.events as string, keys.operator);
    expect(stream.status).toBe(200);
    expect(stream.contentType).toContain('text/event-stream');
    const progress = stream.events.filter((event) => event.event === 'progress').map((event) => event.data.event!.type);
    expect(progress[0]).toBe('run_started');
    expect(progress).toContain('node_finished');
    const last = stream.events.at(-1)!;
    expect(last).toMatchObject({ event: 'result', data: { type: 'result', result: { status: 'completed' } } });
    expect(stream.events.map((event) => Number(event.id))).toEqual(stream.events.map((_event, index) => index + 1));
    const resumed = await readEvents(started.json.events as string, keys.operator, '3');
    expect(resumed.events.map((event) => event.id)).toEqual(stream.events.slice(3).map((event) => event.id));
  });

  it('gives a key that may not read the run a 404, not a stream', async () => {
    const started = await call('POST', '/api/v1/runs', keys.admin, { goal: DEMO_QUESTION, wait: true });
    const refused = await fetch(`${server.url}/api/v1/runs/${started.json.runId as string}/events`, { headers: { authorization: `Bearer ${keys.logsOnly}` } });
    expect(refused.status).toBe(404);
    expect(refused.headers.get('content-type')).toContain('application/json');
    // A run this process no longer holds live is read from the store: one result event.
    const stored = await readEvents(`/api/v1/runs/${started.json.runId as string}/events`, keys.viewer);
    expect(stored.events).toEqual([expect.objectContaining({ event: 'result', data: expect.objectContaining({ type: 'result' }) })]);
  });
});
