import { fetchRequestHandler } from '@trpc/server/adapters/fetch';
import { describe, expect, it, vi } from 'vitest';
import type { RunSummary } from '../../runtime/contracts/run-store';
import { ContextRuntimeError, invalidInput } from '../../runtime/errors';
import type { RunResult } from '../../runtime/explain/explain-types';
import type { RunOptions, RunProgressEvent } from '../../runtime/facade/run-progress';
import type { ContextItem, Principal } from '../../runtime/types';
import type { ApiContext } from '../init';
import { appRouter, createCaller } from '../root-router';
import { fakeRuntimePort } from '../fake-runtime-port';
import type { RunRequestInput, RuntimePort } from '../runtime-port';

const operator: Principal = { user: 'ada', roles: ['operator'] };
const viewer: Principal = { user: 'vic', roles: ['viewer'] };

const started: RunProgressEvent = { type: 'run_started', runId: 'run-1', planHash: 'h', nodes: [{ nodeId: 'reason', kind: 'reason', detail: 'single_shot on local' }] };
const finished: RunProgressEvent = { type: 'node_finished', runId: 'run-1', nodeId: 'reason', kind: 'reason', detail: 'single_shot on local', elapsedMs: 5, attempts: 1, actual: { tokens: 10, costUsd: 0, latencySeconds: 0.1 }, models: ['m'] };
const result = { runId: 'run-1', status: 'completed', citations: [] } as unknown as RunResult;

const item: ContextItem = {
  ref: 1,
  text: 'OOMKilled … (clipped)',
  tokens: 4,
  compressed: true,
  hit: { chunkId: 'chunk-7', sourceName: 'demo-events', sourceKind: 'events', sourceVersionId: 'v-2', title: 'event 3: Warning OOMKilled', text: 'container checkout-api OOMKilled, limit 256Mi', score: 1.5, rank: 1, method: 'bm25', locator: 'event 3', tokens: 9 },
};

const summary = (id: string, user: string): RunSummary => ({ id, goal: `goal ${id}`, status: 'completed', planHash: 'h', user, costUsd: 0, latencySeconds: 1, createdAt: '2026-01-01T00:00:00.000Z' });

/** A runtime whose run reports two events and answers; the methods a test does not use reject. */
function fakeRuntime(overrides: Partial<RuntimePort> = {}): RuntimePort {
  const run = async (_request: RunRequestInput, options?: RunOptions) => {
    options?.onProgress?.(started);
    await new Promise((resolve) => setTimeout(resolve, 5));
    options?.onProgress?.(finished);
    return result;
  };
  return fakeRuntimePort({ run, evidence: async () => [item], ...overrides });
}

const callerFor = (runtime: RuntimePort, principal?: Principal) => createCaller({ runtime: async () => runtime, principal });

/** A server-side caller yields the raw tracked envelope [id, data, symbol]; the HTTP client sees { id, data }. */
async function collect<T>(iterable: AsyncIterable<{ id: string; data: T }>): Promise<[string, T][]> {
  const items: [string, T][] = [];
  for await (const value of iterable) {
    const [id, data] = value as unknown as [string, T];
    items.push([id, data]);
  }
  return items;
}

/** Starts a run through the mutation and follows it to the end. */
async function startAndFollow(runtime: RuntimePort, request: RunRequestInput, lastEventId?: string) {
  const caller = callerFor(runtime, operator);
  const { runId } = await caller.console.start(request as never);
  return { runId, events: await collect(await caller.console.follow({ runId, lastEventId })) };
}

const storedRun = (status: string) => vi.fn(async () => ({ run: { ...result, status } as RunResult, spans: [] }));

describe('console.start and console.follow', () => {
  it('starts the run with a POST-sized request and answers with its id; follow streams progress then the result', async () => {
    const run = vi.fn(fakeRuntime().run);
    const getRun = storedRun('running');
    const { runId, events } = await startAndFollow(fakeRuntime({ run, getRun }), { goal: 'why', sources: ['demo-logs'] });
    expect(runId).toBe('run-1');
    expect(events.map(([, data]) => data.type)).toEqual(['progress', 'progress', 'result']);
    expect(events.map(([id]) => id)).toEqual(['run-1#1', 'run-1#2', 'run-1#3']);
    expect(events[1][1]).toEqual({ type: 'progress', event: finished });
    expect(events[2][1]).toEqual({ type: 'result', result });
    expect(run).toHaveBeenCalledTimes(1);
    expect(run.mock.calls[0][0]).toEqual({ goal: 'why', sources: ['demo-logs'], principal: operator });
    // The read check: follow asks the runtime for the run before streaming it.
    expect(getRun).toHaveBeenCalledWith('run-1', expect.objectContaining({ user: expect.any(String) }));
  });

  it('accepts a 15,000-character goal over HTTP: start is a POST, follow carries only the run id', async () => {
    const run = vi.fn(fakeRuntime().run);
    const runtime = fakeRuntime({ run, getRun: storedRun('running') });
    const context: ApiContext = { runtime: async () => runtime, principal: operator };
    const goal = 'why did checkout-api fail '.repeat(600).slice(0, 15_000);
    const body = JSON.stringify({ 0: { json: { goal } } });
    const started = await fetchRequestHandler({ endpoint: '/api/trpc', req: new Request('http://local/api/trpc/console.start?batch=1', { method: 'POST', body, headers: { 'content-type': 'application/json' } }), router: appRouter, createContext: () => context });
    expect(started.status).toBe(200);
    expect(run.mock.calls[0][0].goal).toHaveLength(15_000);
    const [{ result: { data } }] = (await started.json()) as [{ result: { data: { json: { runId: string } } } }];
    const input = encodeURIComponent(JSON.stringify({ json: { runId: data.json.runId } }));
    expect(input.length).toBeLessThan(100);
    const stream = await fetchRequestHandler({ endpoint: '/api/trpc', req: new Request(`http://local/api/trpc/console.follow?input=${input}`), router: appRouter, createContext: () => context });
    expect(stream.headers.get('content-type')).toContain('text/event-stream');
    const text = await stream.text();
    expect(text.indexOf('"node_finished"')).toBeGreaterThan(text.indexOf('"run_started"'));
    expect(text).toMatch(/id: run-1#3/);
  });

  it('refuses bad input at start, naming the field, and starts nothing', async () => {
    const run = async () => {
      throw invalidInput('constraints.max_cost_usd', 'expected a number ≥ 0, got -1');
    };
    const error = await callerFor(fakeRuntime({ run }), operator).console.start({ goal: 'why', constraints: { max_cost_usd: -1 } }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'BAD_REQUEST', message: 'constraints.max_cost_usd: expected a number ≥ 0, got -1', cause: { field: 'constraints.max_cost_usd' } });
  });

  it('a reconnect resumes after the last event it saw and does not run the goal again', async () => {
    const run = vi.fn(fakeRuntime().run);
    const runtime = fakeRuntime({ run, getRun: storedRun('running') });
    const { runId } = await startAndFollow(runtime, { goal: 'why' });
    const resumed = await collect(await callerFor(runtime, operator).console.follow({ runId, lastEventId: 'run-1#2' }));
    expect(run).toHaveBeenCalledTimes(1);
    expect(resumed).toEqual([['run-1#3', { type: 'result', result }]]);
  });

  it('follows a run this process does not hold by polling its stored state until it settles', async () => {
    const run = vi.fn(fakeRuntime().run);
    const getRun = vi.fn().mockResolvedValueOnce({ run: { ...result, status: 'running' }, spans: [] }).mockResolvedValueOnce({ run: { ...result, status: 'running' }, spans: [] }).mockResolvedValueOnce({ run: result, spans: [] });
    const events = await collect(await callerFor(fakeRuntime({ run, getRun }), viewer).console.follow({ runId: 'elsewhere', lastEventId: 'elsewhere#4' }));
    expect(run).not.toHaveBeenCalled();
    expect(getRun).toHaveBeenCalledWith('elsewhere', expect.objectContaining({ user: expect.any(String) }));
    expect(events.map(([, data]) => data)).toEqual([{ type: 'result', result }]);
  });

  it('sends a failure after the run started as a serialized error over SSE', async () => {
    const runFails = async (_request: RunRequestInput, options?: RunOptions) => {
      options?.onProgress?.(started);
      await new Promise((resolve) => setTimeout(resolve, 5));
      throw new ContextRuntimeError('NO_FEASIBLE_PLAN', 'max_latency_seconds: no plan fits 0.001 s', { field: 'constraints.max_latency_seconds' });
    };
    const runtime = fakeRuntime({ run: runFails, getRun: storedRun('running') });
    const { runId } = await callerFor(runtime, operator).console.start({ goal: 'why' });
    const error = await collect(await callerFor(runtime, operator).console.follow({ runId })).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'PRECONDITION_FAILED', cause: { field: 'constraints.max_latency_seconds' } });
  });

  it('follow of an unknown run is NOT_FOUND from the read check', async () => {
    const getRun = async () => {
      throw new ContextRuntimeError('NOT_FOUND', 'run nope not found', { field: 'runId' });
    };
    const error = await collect(await callerFor(fakeRuntime({ getRun }), viewer).console.follow({ runId: 'nope' })).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'NOT_FOUND' });
  });

  it('start requires the operator role; follow requires sign-in', async () => {
    await expect(callerFor(fakeRuntime()).console.start({ goal: 'why' })).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    await expect(callerFor(fakeRuntime(), viewer).console.start({ goal: 'why' })).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(callerFor(fakeRuntime()).console.follow({ runId: 'run-1' })).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
  });
});

describe('console.evidence', () => {
  it('returns the cited chunk as the run saw it', async () => {
    const chunk = await callerFor(fakeRuntime(), viewer).console.evidence({ runId: 'run-1', chunkId: 'chunk-7' });
    expect(chunk).toMatchObject({ ref: 1, sourceName: 'demo-events', sourceVersionId: 'v-2', locator: 'event 3', text: 'container checkout-api OOMKilled, limit 256Mi', contextText: 'OOMKilled … (clipped)' });
    expect(chunk.versionNo).toBeNull();
  });

  it('reads the version number from the knowledge explorer when there is one', async () => {
    const versions = async () => [{ id: 'v-2', versionNo: 2, supersededAt: '2026-02-01T00:00:00.000Z' }];
    const runtime = Object.assign(fakeRuntime(), { knowledge: () => ({ explorer: { versions } }) });
    await expect(callerFor(runtime, viewer).console.evidence({ runId: 'run-1', chunkId: 'chunk-7' })).resolves.toMatchObject({ versionNo: 2, superseded: true });
  });

  it('passes the document uri through when the retriever recorded it', async () => {
    const withUri = { ...item, hit: { ...item.hit, uri: 'events/checkout-api.yaml' } } as ContextItem;
    const chunk = await callerFor(fakeRuntime({ evidence: async () => [withUri] }), viewer).console.evidence({ runId: 'run-1', chunkId: 'chunk-7' });
    expect(chunk.uri).toBe('events/checkout-api.yaml');
  });

  it('is NOT_FOUND for a chunk the run did not use', async () => {
    await expect(callerFor(fakeRuntime(), viewer).console.evidence({ runId: 'run-1', chunkId: 'other' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('requires sign-in', async () => {
    await expect(callerFor(fakeRuntime()).console.evidence({ runId: 'run-1', chunkId: 'chunk-7' })).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    await expect(callerFor(fakeRuntime(), { user: 'x', roles: ['guest'] }).console.evidence({ runId: 'run-1', chunkId: 'chunk-7' })).rejects.toMatchObject({ code: 'FORBIDDEN' });
  });
});

describe('console.history', () => {
  it("lists only the signed-in user's runs, newest first as the store returns them", async () => {
    const all = [summary('a', 'ada'), summary('b', 'bob'), summary('c', 'ada')];
    const listRuns = vi.fn(async (options: { user?: string }) => all.filter((run) => run.user === options.user));
    const runs = await callerFor(fakeRuntime({ listRuns }), operator).console.history({ limit: 5 });
    expect(runs.map((run) => run.id)).toEqual(['a', 'c']);
    // The user filter and the access check are the runtime's: the caller is passed, not trusted to filter.
    expect(listRuns).toHaveBeenCalledWith({ limit: 5, user: operator.user, principal: operator });
  });

  it('requires sign-in', async () => {
    await expect(callerFor(fakeRuntime()).console.history()).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    await expect(callerFor(fakeRuntime(), { user: 'x', roles: [] }).console.history()).rejects.toMatchObject({ code: 'FORBIDDEN' });
  });
});
