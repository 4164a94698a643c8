import { fetchRequestHandler } from '@trpc/server/adapters/fetch';
import { describe, expect, it, vi } from 'vitest';
import type { RunSummary } from '../../runtime/contracts/run-store';
import { invalidInput } from '../../runtime/errors';
import type { RunResult } from '../../runtime/explain/explain-types';
import type { RunOptions, RunProgressEvent } from '../../runtime/facade/run-progress';
import type { ContextItem, Principal } from '../../runtime/types';
import type { ApiContext } from '../init';
import { appRouter, createCaller } from '../root-router';
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
  const unexpected = () => Promise.reject(new Error('not used by this test'));
  const run = async (_request: RunRequestInput, options?: RunOptions) => {
    options?.onProgress?.(started);
    await new Promise((resolve) => setTimeout(resolve, 5));
    options?.onProgress?.(finished);
    return result;
  };
  return { run, explain: unexpected, simulate: unexpected, approve: unexpected, getRun: unexpected, listRuns: unexpected, sources: unexpected, ingest: unexpected, statistics: unexpected, evidence: async () => [item], ...overrides };
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

describe('console.run subscription', () => {
  it('streams progress events in order, then the result, with resumable ids', async () => {
    const run = vi.fn(fakeRuntime().run);
    const stream = await callerFor(fakeRuntime({ run }), operator).console.run({ goal: 'why', sources: ['demo-logs'] });
    const events = await collect(stream);
    expect(events.map(([, data]) => data.type)).toEqual(['progress', 'progress', 'result']);
    expect(events.map(([id]) => id)).toEqual(['run-1#1', 'run-1#2', 'run-1#3']);
    expect(events[1][1]).toEqual({ type: 'progress', event: finished });
    expect(events[2][1]).toEqual({ type: 'result', result });
    expect(run.mock.calls[0][0]).toEqual({ goal: 'why', sources: ['demo-logs'], principal: operator });
  });

  it('maps a runtime input error to BAD_REQUEST naming the field', async () => {
    const run = async () => {
      throw invalidInput('constraints.max_cost_usd', 'expected a number ≥ 0, got -1');
    };
    const stream = await callerFor(fakeRuntime({ run }), operator).console.run({ goal: 'why', constraints: { max_cost_usd: -1 } });
    const error = await collect(stream).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'BAD_REQUEST', message: 'constraints.max_cost_usd: expected a number ≥ 0, got -1', cause: { field: 'constraints.max_cost_usd' } });
  });

  it('does not run the goal again on reconnect: it waits for the run it already started', async () => {
    const run = vi.fn(fakeRuntime().run);
    const getRun = vi.fn().mockResolvedValueOnce({ run: { ...result, status: 'running' }, spans: [] }).mockResolvedValueOnce({ run: result, spans: [] });
    const stream = await callerFor(fakeRuntime({ run, getRun }), operator).console.run({ goal: 'why', lastEventId: 'run-1#2' });
    const events = await collect(stream);
    expect(run).not.toHaveBeenCalled();
    expect(getRun).toHaveBeenCalledWith('run-1');
    expect(events.map(([, data]) => data)).toEqual([{ type: 'result', result }]);
  });

  it('streams over HTTP as server-sent events', async () => {
    const context: ApiContext = { runtime: async () => fakeRuntime(), principal: operator };
    const input = encodeURIComponent(JSON.stringify({ json: { goal: 'why' } }));
    const response = await fetchRequestHandler({ endpoint: '/api/trpc', req: new Request(`http://local/api/trpc/console.run?input=${input}`), router: appRouter, createContext: () => context });
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const body = await response.text();
    expect(body.indexOf('"node_finished"')).toBeGreaterThan(body.indexOf('"run_started"'));
    expect(body).toMatch(/id: run-1#3/);
  });

  it('sends a runtime error over SSE with the field the form highlights', async () => {
    const run = async () => {
      throw invalidInput('constraints.max_cost_usd', 'expected a number ≥ 0, got -1');
    };
    const context: ApiContext = { runtime: async () => fakeRuntime({ run }), principal: operator };
    const input = encodeURIComponent(JSON.stringify({ json: { goal: 'why' } }));
    const response = await fetchRequestHandler({ endpoint: '/api/trpc', req: new Request(`http://local/api/trpc/console.run?input=${input}`), router: appRouter, createContext: () => context });
    const body = await response.text();
    expect(body).toContain('event: serialized-error');
    expect(body).toContain('"field":"constraints.max_cost_usd"');
    expect(body).toContain('"code":"BAD_REQUEST"');
  });

  it('requires sign-in and the operator role', async () => {
    await expect(callerFor(fakeRuntime()).console.run({ goal: 'why' })).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    await expect(callerFor(fakeRuntime(), viewer).console.run({ goal: 'why' })).rejects.toMatchObject({ code: 'FORBIDDEN' });
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
    const listRuns = vi.fn(async () => [summary('a', 'ada'), summary('b', 'bob'), summary('c', 'ada')]);
    const runs = await callerFor(fakeRuntime({ listRuns }), operator).console.history({ limit: 5 });
    expect(runs.map((run) => run.id)).toEqual(['a', 'c']);
  });

  it('requires sign-in', async () => {
    await expect(callerFor(fakeRuntime()).console.history()).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    await expect(callerFor(fakeRuntime(), { user: 'x', roles: [] }).console.history()).rejects.toMatchObject({ code: 'FORBIDDEN' });
  });
});
