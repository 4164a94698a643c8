import { afterEach, describe, expect, it, vi } from 'vitest';
import { createGraph, createNode, type GraphNode } from '../ir/graph';
import { ContextRuntimeError } from '../errors';
import type { NodeExecutor, NodeOutcome, RunCheckpoint, SchedulerHooks } from '../contracts/scheduler';
import { WaveScheduler, topologicalWaves } from './wave-scheduler';

const done = (output: unknown = {}): NodeOutcome => ({ output, actual: { tokens: 0, costUsd: 0, latencySeconds: 0 } });
const emptyCheckpoint: RunCheckpoint = { completed: new Map(), skipped: new Set(), decisions: new Map() };
const hooks = (log: string[] = []): SchedulerHooks => ({ onNodeDone: async (node) => void log.push(`done:${node.id}`), onNodeSkipped: async (node) => void log.push(`skip:${node.id}`) });
const merge = (id: string, inputs: string[] = [], extra: Partial<GraphNode> = {}) => createNode('merge', { id, inputs, ...extra });

describe('WaveScheduler', () => {
  const scheduler = new WaveScheduler();

  it('groups nodes into topological waves', () => {
    const graph = createGraph([merge('a'), merge('b'), merge('c', ['a', 'b']), merge('d', ['c'])]);
    expect(topologicalWaves(graph)).toEqual([['a', 'b'], ['c'], ['d']]);
  });

  it('never runs more nodes at once than the cap', async () => {
    const graph = createGraph(['a', 'b', 'c', 'd', 'e'].map((id) => merge(id)));
    let inFlight = 0;
    let peak = 0;
    const executor: NodeExecutor = async () => {
      peak = Math.max(peak, ++inFlight);
      await new Promise((resolve) => setTimeout(resolve, 10));
      inFlight--;
      return done();
    };
    const result = await scheduler.run(graph, scheduler.schedule(graph, { concurrency: 2 }), executor, emptyCheckpoint, hooks());
    expect(result.status).toBe('completed');
    expect(peak).toBe(2);
  });

  it('cancels: the in-flight node sees its signal abort, it is not retried, and nothing after it runs', async () => {
    const graph = createGraph([merge('slow', [], { retry: { maxAttempts: 3, backoffMs: 0 } }), merge('after', ['slow'])]);
    const cancel = new AbortController();
    const seen: string[] = [];
    const executor: NodeExecutor = (node, context) => {
      seen.push(`${node.id}#${context.attempt}`);
      // Never settles on its own: only the abort ends it, as a model call honouring the signal would.
      return new Promise<NodeOutcome>((_, reject) => context.signal.addEventListener('abort', () => reject(new Error(`aborted ${node.id}`)), { once: true }));
    };
    const log: string[] = [];
    const running = scheduler.run(graph, scheduler.schedule(graph, { concurrency: 1 }), executor, emptyCheckpoint, hooks(log), { signal: cancel.signal });
    await new Promise((resolve) => setTimeout(resolve, 20));
    cancel.abort();
    const result = await running;
    expect(result.status).toBe('cancelled');
    expect(seen).toEqual(['slow#1']);
    expect(log).toEqual([]);
  });

  it('does not start a run whose signal is already aborted', async () => {
    const graph = createGraph([merge('a')]);
    const executed: string[] = [];
    const executor: NodeExecutor = async (node) => (executed.push(node.id), done());
    const result = await scheduler.run(graph, scheduler.schedule(graph, { concurrency: 1 }), executor, emptyCheckpoint, hooks(), { signal: AbortSignal.abort() });
    expect(result.status).toBe('cancelled');
    expect(executed).toEqual([]);
  });

  it('retries with backoff until the node succeeds', async () => {
    const graph = createGraph([merge('flaky', [], { retry: { maxAttempts: 3, backoffMs: 5 } })]);
    const attempts: number[] = [];
    const executor: NodeExecutor = async (_node, context) => {
      attempts.push(context.attempt);
      if (context.attempt < 3) throw new Error('transient');
      return done('ok');
    };
    const result = await scheduler.run(graph, scheduler.schedule(graph, { concurrency: 1 }), executor, emptyCheckpoint, hooks());
    expect(result.status).toBe('completed');
    expect(attempts).toEqual([1, 2, 3]);
  });

  it('times a hung node out, retries, then fails and compensates completed work', async () => {
    const graph = createGraph([
      merge('write', [], { compensation: 'undo-write' }),
      merge('undo-write', ['write']),
      merge('hang', ['write'], { timeoutMs: 30, retry: { maxAttempts: 2, backoffMs: 1 } }),
    ]);
    const ran: string[] = [];
    const executor: NodeExecutor = async (node, context) => {
      ran.push(`${node.id}#${context.attempt}`);
      if (node.id === 'hang') await new Promise((resolve) => setTimeout(resolve, 1000));
      return done();
    };
    const result = await scheduler.run(graph, scheduler.schedule(graph, { concurrency: 2 }), executor, emptyCheckpoint, hooks());
    expect(result.status).toBe('failed');
    if (result.status === 'failed') expect(result.error).toMatch(/timed out after 30 ms/);
    expect(ran).toEqual(['write#1', 'hang#1', 'hang#2', 'undo-write#1']);
  });

  it('pauses at an approve gate and resumes from a checkpoint with the decision', async () => {
    const graph = createGraph([merge('a'), createNode('approve', { id: 'gate', inputs: ['a'], reason: 'high risk', approverRole: 'approver' }), merge('b', ['gate'])]);
    const schedule = scheduler.schedule(graph, { concurrency: 1 });
    const executed: string[] = [];
    const executor: NodeExecutor = async (node) => (executed.push(node.id), done(node.id));
    const first = await scheduler.run(graph, schedule, executor, emptyCheckpoint, hooks());
    expect(first).toMatchObject({ status: 'awaiting_approval', nodeId: 'gate' });
    expect(executed).toEqual(['a']);
    // A "restart": only the persisted outcomes and the decision come back.
    const resumed = await scheduler.run(graph, schedule, executor, { completed: first.outcomes, skipped: new Set(), decisions: new Map([['gate', 'approved']]) }, hooks());
    expect(resumed.status).toBe('completed');
    expect(executed).toEqual(['a', 'b']);
    const rejected = await scheduler.run(graph, schedule, executor, { completed: first.outcomes, skipped: new Set(), decisions: new Map([['gate', 'rejected']]) }, hooks());
    expect(rejected).toMatchObject({ status: 'rejected', nodeId: 'gate' });
  });

  it('skips the branch not taken and what depends only on it', async () => {
    const graph = createGraph([
      createNode('branch', { id: 'check', inputs: [], condition: 'verify.passed', whenTrue: ['yes'], whenFalse: ['no'] }),
      merge('yes', ['check']),
      merge('no', ['check']),
      merge('after-no', ['no']),
      merge('join', ['yes', 'no']),
    ]);
    const log: string[] = [];
    const executor: NodeExecutor = async (node) => (node.kind === 'branch' ? { ...done(), takenBranch: ['yes'] } : done());
    const result = await scheduler.run(graph, scheduler.schedule(graph, { concurrency: 2 }), executor, emptyCheckpoint, hooks(log));
    expect(result.status).toBe('completed');
    expect(log).toContain('skip:no');
    expect(log).toContain('skip:after-no');
    expect(log).toContain('done:join');
  });
});

describe('WaveScheduler retries and timeouts (fake clock)', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('backs off exponentially with jitter between attempts', async () => {
    vi.useFakeTimers();
    const draws = [0, 1, 0.5];
    const scheduler = new WaveScheduler({ random: () => draws.shift()! });
    const graph = createGraph([merge('flaky', [], { retry: { maxAttempts: 4, backoffMs: 100 } })]);
    const startedAt: number[] = [];
    const executor: NodeExecutor = async (_node, context) => {
      startedAt.push(Date.now());
      if (context.attempt < 4) throw new Error('HTTP 503');
      return done('ok');
    };
    const origin = Date.now();
    const running = scheduler.run(graph, scheduler.schedule(graph, { concurrency: 1 }), executor, emptyCheckpoint, hooks());
    // Waits: attempt 1 → [50, 100] drew 0 → 50; attempt 2 → [100, 200] drew 1 → 200; attempt 3 → [200, 400] drew 0.5 → 300.
    await vi.advanceTimersByTimeAsync(49);
    expect(startedAt).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(startedAt).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(199);
    expect(startedAt).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1 + 300);
    expect((await running).status).toBe('completed');
    expect(startedAt.map((at) => at - origin)).toEqual([0, 50, 250, 550]);
  });

  it('never retries a policy refusal or a user error', async () => {
    const scheduler = new WaveScheduler();
    const graph = createGraph([merge('refused', [], { retry: { maxAttempts: 3, backoffMs: 0 } })]);
    const failures: boolean[] = [];
    const executor: NodeExecutor = async () => {
      throw new ContextRuntimeError('FORBIDDEN', 'tier cheap is not local: a passage holding email stays on local tiers');
    };
    const result = await scheduler.run(graph, scheduler.schedule(graph, { concurrency: 1 }), executor, emptyCheckpoint, {
      ...hooks(),
      onNodeFailed: (_node, _error, _attempt, willRetry) => failures.push(willRetry),
    });
    expect(result).toMatchObject({ status: 'failed', nodeId: 'refused', error: expect.stringContaining('not local') });
    expect(failures).toEqual([false]);
  });

  it('aborts a timed-out attempt with a TIMEOUT reason and starts the retry only once it has settled', async () => {
    vi.useFakeTimers();
    const scheduler = new WaveScheduler({ random: () => 0 });
    const graph = createGraph([merge('slow', [], { timeoutMs: 1000, retry: { maxAttempts: 2, backoffMs: 0 } })]);
    const events: string[] = [];
    const reasons: unknown[] = [];
    const executor: NodeExecutor = (_node, context) =>
      new Promise<NodeOutcome>((resolve, reject) => {
        events.push(`start#${context.attempt}@${Date.now()}`);
        if (context.attempt === 2) return resolve(done('second'));
        context.signal.addEventListener('abort', () => {
          reasons.push(context.signal.reason);
          // Closing the connection takes a moment; the retry must not start before it ends.
          setTimeout(() => {
            events.push(`settled#1@${Date.now()}`);
            reject(context.signal.reason);
          }, 150);
        });
      });
    const origin = Date.now();
    const running = scheduler.run(graph, scheduler.schedule(graph, { concurrency: 1 }), executor, emptyCheckpoint, hooks());
    await vi.advanceTimersByTimeAsync(2000);
    expect((await running).status).toBe('completed');
    expect(reasons).toEqual([expect.objectContaining({ code: 'TIMEOUT', message: 'node slow timed out after 1000 ms' })]);
    expect(events).toEqual([`start#1@${origin}`, `settled#1@${origin + 1150}`, `start#2@${origin + 1150}`]);
  });

  it('drops the late result of an executor that ignores its signal', async () => {
    vi.useFakeTimers();
    const scheduler = new WaveScheduler({ abortGraceMs: 500 });
    const graph = createGraph([merge('deaf', [], { timeoutMs: 100 })]);
    const executor: NodeExecutor = () => new Promise((resolve) => setTimeout(() => resolve(done('late')), 300));
    const running = scheduler.run(graph, scheduler.schedule(graph, { concurrency: 1 }), executor, emptyCheckpoint, hooks());
    await vi.advanceTimersByTimeAsync(1000);
    const result = await running;
    expect(result).toMatchObject({ status: 'failed', error: 'node deaf timed out after 100 ms' });
    expect(result.outcomes.has('deaf')).toBe(false);
  });

  it('gives a node without its own timeoutMs the run’s deadline for its kind, and aborts its work there', async () => {
    vi.useFakeTimers();
    const scheduler = new WaveScheduler({ abortGraceMs: 50 });
    const graph = createGraph([merge('own', [], { timeoutMs: 500 }), merge('none', [])]);
    const aborted: string[] = [];
    const executor: NodeExecutor = (node, context) =>
      new Promise((_, reject) => context.signal.addEventListener('abort', () => (aborted.push(`${node.id}@${Date.now() - origin}`), reject(context.signal.reason))));
    const origin = Date.now();
    const running = scheduler.run(graph, scheduler.schedule(graph, { concurrency: 2 }), executor, emptyCheckpoint, hooks(), { nodeTimeoutMs: () => 200 });
    await vi.advanceTimersByTimeAsync(1000);
    expect(await running).toMatchObject({ status: 'failed', nodeId: 'none', error: 'node none timed out after 200 ms' });
    expect(aborted).toEqual(['none@200', 'own@500']);
  });
});
