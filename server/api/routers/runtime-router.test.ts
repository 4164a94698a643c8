import { fetchRequestHandler } from '@trpc/server/adapters/fetch';
import superjson from 'superjson';
import { describe, expect, it, vi } from 'vitest';
import { ContextRuntimeError, invalidInput } from '../../runtime/errors';
import type { RunResult } from '../../runtime/explain/explain-types';
import { INTERNAL_ERROR_MESSAGE, type ApiContext } from '../init';
import { appRouter, createCaller } from '../root-router';
import { fakeRuntimePort } from '../fake-runtime-port';
import type { RunRequestInput, RuntimePort } from '../runtime-port';

/** A runtime whose `run` does whatever the test says; every other method must not be reached. */
function fakeRuntime(run: (request: RunRequestInput) => Promise<RunResult>): RuntimePort {
  return fakeRuntimePort({ run });
}

/** An operator: the role run needs (authorization itself is covered by server/api/authorization.test.ts). */
const contextFor = (runtime: RuntimePort): ApiContext => ({ runtime: async () => runtime, principal: { user: 'ada', roles: ['operator'] } });

const rejectCost = async () => {
  throw invalidInput('constraints.max_cost_usd', 'expected a number ≥ 0, got -1');
};

describe('runtime router error mapping', () => {
  it('passes the request and the principal through to the runtime', async () => {
    const result = { runId: 'run-1', status: 'completed' } as unknown as RunResult;
    const run = vi.fn(async () => result);
    const caller = createCaller({ runtime: async () => fakeRuntime(run), principal: { user: 'ada', roles: ['operator'] } });
    await expect(caller.runtime.run({ goal: 'why', constraints: { max_tokens: 900 } })).resolves.toBe(result);
    expect(run).toHaveBeenCalledWith({ goal: 'why', constraints: { max_tokens: 900 }, principal: { user: 'ada', roles: ['operator'] } });
  });

  it('maps a user error to BAD_REQUEST with the field-naming message', async () => {
    const caller = createCaller(contextFor(fakeRuntime(rejectCost)));
    const error = await caller.runtime.run({ goal: 'why', constraints: { max_cost_usd: -1 } }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'BAD_REQUEST', message: 'constraints.max_cost_usd: expected a number ≥ 0, got -1' });
  });

  it.each([
    ['NOT_FOUND', 'NOT_FOUND'],
    ['CONFLICT', 'CONFLICT'],
    ['NO_FEASIBLE_PLAN', 'PRECONDITION_FAILED'],
    ['UNKNOWN_SOURCE', 'BAD_REQUEST'],
  ] as const)('maps %s to %s', async (runtimeCode, trpcCode) => {
    const fail = async (): Promise<RunResult> => {
      throw new ContextRuntimeError(runtimeCode, `${runtimeCode} happened`);
    };
    const error = await createCaller(contextFor(fakeRuntime(fail))).runtime.run({ goal: 'g' }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: trpcCode, message: `${runtimeCode} happened` });
  });

  it('hides the message of an unexpected error and logs it', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const crash = async (): Promise<RunResult> => {
      throw new Error('relation "runs" does not exist at /srv/secret/path');
    };
    const error = await createCaller(contextFor(fakeRuntime(crash))).runtime.run({ goal: 'g' }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'INTERNAL_SERVER_ERROR', message: INTERNAL_ERROR_MESSAGE });
    expect(String(log.mock.calls[0]?.[1])).toContain('relation "runs" does not exist');
    log.mockRestore();
  });

  it('treats a runtime failure that is not the caller’s fault as internal', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const timeout = async (): Promise<RunResult> => {
      throw new ContextRuntimeError('MODEL_UNAVAILABLE', 'tier large: ECONNREFUSED 10.0.0.7:443');
    };
    const error = await createCaller(contextFor(fakeRuntime(timeout))).runtime.run({ goal: 'g' }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'INTERNAL_SERVER_ERROR', message: INTERNAL_ERROR_MESSAGE });
    log.mockRestore();
  });

  it('names the field when the router boundary rejects the shape', async () => {
    const caller = createCaller(contextFor(fakeRuntime(rejectCost)));
    const error = await caller.runtime.run({ goal: 42 as unknown as string }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'BAD_REQUEST' });
    expect((error as Error).message).toMatch(/^goal: /);
  });
});

describe('runtime router roles', () => {
  const succeed = async () => ({ runId: 'run-1', status: 'completed' }) as unknown as RunResult;

  it('refuses run to a caller who is not signed in (UNAUTHORIZED) and to a viewer (FORBIDDEN)', async () => {
    const anonymous = await createCaller({ runtime: async () => fakeRuntime(succeed) }).runtime.run({ goal: 'g' }).catch((caught: unknown) => caught);
    expect(anonymous).toMatchObject({ code: 'UNAUTHORIZED' });
    const viewer = createCaller({ runtime: async () => fakeRuntime(succeed), principal: { user: 'vera', roles: ['viewer'] } });
    await expect(viewer.runtime.run({ goal: 'g' })).rejects.toMatchObject({ code: 'FORBIDDEN', message: 'requires the operator role' });
  });

  it('cancels as the signed-in operator; a viewer may not', async () => {
    const cancel = vi.fn(async () => ({ runId: 'run-1', status: 'cancelled' }) as unknown as RunResult);
    const runtime = fakeRuntimePort({ cancel });
    const ada = { user: 'ada', roles: ['operator'] };
    await expect(createCaller({ runtime: async () => runtime, principal: ada }).runtime.cancel({ runId: 'run-1' })).resolves.toMatchObject({ status: 'cancelled' });
    expect(cancel).toHaveBeenCalledWith('run-1', ada);
    const viewer = createCaller({ runtime: async () => runtime, principal: { user: 'vera', roles: ['viewer'] } });
    await expect(viewer.runtime.cancel({ runId: 'run-1' })).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(createCaller({ runtime: async () => runtime, principal: ada }).runtime.cancel({ runId: '' })).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    expect(cancel).toHaveBeenCalledTimes(1);
  });

  it('decides as the signed-in approver, never as a name the client sends', async () => {
    const approve = vi.fn(async () => ({ runId: 'run-1', status: 'completed' }) as unknown as RunResult);
    const runtime = { ...fakeRuntime(succeed), approve } as RuntimePort;
    const april = { user: 'april@example.com', roles: ['approver'] };
    const caller = createCaller({ runtime: async () => runtime, principal: april });
    await caller.runtime.approve({ runId: 'run-1', nodeId: 'gate', decision: 'approved', by: 'mallory' } as never);
    expect(approve).toHaveBeenCalledWith('run-1', 'gate', 'approved', april, '');
  });

  it('makes the CLI decide as an account it signs in as, not as free text (issue 12, finding 7)', async () => {
    const approve = vi.fn(async () => ({ runId: 'run-1', status: 'completed' }) as unknown as RunResult);
    const runtime = { ...fakeRuntime(succeed), approve } as RuntimePort;
    const alice = { email: 'alice@example.com', roles: ['approver'] };
    // The user store's sign-in check, reduced to one known account and password.
    const users = { authenticate: async (email: string, password: string) => (email === alice.email && password === 'correct horse' ? alice : undefined) };
    const cli = createCaller({ runtime: async () => runtime, principal: { user: 'cli@local', roles: ['admin'] }, accounts: async () => ({ users }) as never });
    await cli.runtime.approve({ runId: 'run-1', nodeId: 'gate', decision: 'rejected', by: 'alice@example.com', password: 'correct horse' });
    expect(approve).toHaveBeenLastCalledWith('run-1', 'gate', 'rejected', { user: 'alice@example.com', roles: ['approver'] }, '');
    await expect(cli.runtime.approve({ runId: 'run-1', nodeId: 'gate', decision: 'approved', by: 'alice@example.com', password: 'guess' })).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(cli.runtime.approve({ runId: 'run-1', nodeId: 'gate', decision: 'approved', by: 'alice' })).rejects.toMatchObject({ code: 'BAD_REQUEST', message: expect.stringContaining('CONTEXT_RUNTIME_PASSWORD') });
    await expect(cli.runtime.approve({ runId: 'run-1', nodeId: 'gate', decision: 'approved' })).rejects.toMatchObject({ code: 'BAD_REQUEST', message: expect.stringMatching(/^by: /) });
    expect(approve).toHaveBeenCalledTimes(1);
  });
});

// Issue 13, point 1: an ingest stops when its caller goes away (the request's signal, which
// Next.js aborts when the connection closes), instead of running on for nobody.
describe('runtime router ingest cancellation', () => {
  const admin = { user: 'ada', roles: ['admin'] };
  /** A runtime whose ingests run until their signal fires, and which records that signal. */
  function stoppableIngests() {
    const signals: (AbortSignal | undefined)[] = [];
    const untilStopped = (signal: AbortSignal | undefined) =>
      new Promise<never>((_, reject) => {
        signals.push(signal);
        signal?.addEventListener('abort', () => reject(new ContextRuntimeError('CANCELLED', 'the ingest was cancelled by its caller')), { once: true });
      });
    const runtime = fakeRuntimePort({
      ingestServerPath: (_path, options) => untilStopped(options.signal),
      ingestUpload: (_files, options) => untilStopped(options.signal),
    });
    return { runtime, signals };
  }

  it.each(['ingest', 'upload'] as const)('%s hands the runtime the caller’s signal, and aborting it stops the ingest', async (procedure) => {
    const { runtime, signals } = stoppableIngests();
    const caller = new AbortController();
    const router = createCaller({ runtime: async () => runtime, principal: admin }, { signal: caller.signal }).runtime;
    const ingesting = procedure === 'ingest' ? router.ingest({ path: '/srv/notes' }) : router.upload({ source: 'notes', files: [{ path: 'a.md', contentBase64: Buffer.from('# A\n').toString('base64') }] });
    const outcome = ingesting.catch((caught: unknown) => caught);
    await vi.waitFor(() => expect(signals).toHaveLength(1));
    expect(signals[0]?.aborted).toBe(false);
    caller.abort();
    expect(signals[0]?.aborted).toBe(true);
    expect(await outcome).toBeInstanceOf(Error);
  });

  it('over HTTP, a request whose connection closes aborts the ingest it started', async () => {
    const { runtime, signals } = stoppableIngests();
    const connection = new AbortController();
    const request = new Request('http://localhost/api/trpc/runtime.ingest', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(superjson.serialize({ path: '/srv/notes' })),
      signal: connection.signal,
    });
    const response = fetchRequestHandler({ endpoint: '/api/trpc', req: request, router: appRouter, createContext: () => ({ runtime: async () => runtime, principal: admin }) });
    await vi.waitFor(() => expect(signals).toHaveLength(1));
    connection.abort();
    expect(signals[0]?.aborted).toBe(true);
    await response;
  });
});

describe('runtime router over HTTP', () => {
  async function post(runtime: RuntimePort, body: unknown) {
    const request = new Request('http://localhost/api/trpc/runtime.run', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(superjson.serialize(body)),
    });
    const response = await fetchRequestHandler({ endpoint: '/api/trpc', req: request, router: appRouter, createContext: () => contextFor(runtime) });
    const payload = (await response.json()) as { error: Parameters<typeof superjson.deserialize>[0] };
    return { status: response.status, error: superjson.deserialize<{ message: string; data: Record<string, unknown> }>(payload.error) };
  }

  it('sends the runtime error code and field to the client with a 400', async () => {
    const { status, error } = await post(fakeRuntime(rejectCost), { goal: 'g', constraints: { max_cost_usd: -1 } });
    expect(status).toBe(400);
    expect(error.message).toBe('constraints.max_cost_usd: expected a number ≥ 0, got -1');
    expect(error.data.runtimeError).toEqual({ code: 'INVALID_INPUT', field: 'constraints.max_cost_usd' });
  });

  it('answers an internal failure with a 500, a hidden message and no stack', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { status, error } = await post(fakeRuntime(() => Promise.reject(new Error('secret detail'))), { goal: 'g' });
    log.mockRestore();
    expect(status).toBe(500);
    expect(error.message).toBe(INTERNAL_ERROR_MESSAGE);
    expect(JSON.stringify(error)).not.toContain('secret detail');
    expect(error.data.runtimeError).toBeNull();
    expect(error.data.stack).toBeUndefined();
  });
});
