import { describe, expect, it } from 'vitest';
import type { NodeExecutor, NodeOutcome, RunCheckpoint, SchedulerHooks } from '../contracts/scheduler';
import { createGraph, createNode } from '../ir/graph';
import { WaveScheduler } from '../scheduler/wave-scheduler';
import { describeNode, withProgress, type RunProgressEvent } from './run-progress';

const emptyCheckpoint: RunCheckpoint = { completed: new Map(), skipped: new Set(), decisions: new Map() };

// The shape the planner builds for an incident goal: two retrievals fused, assembled, reasoned over, verified.
const graph = createGraph([
  createNode('retrieve', { id: 'retrieve.bm25', inputs: [], method: 'bm25', sources: ['demo-logs'], sourceKinds: ['logs'], k: 20 }),
  createNode('retrieve', { id: 'retrieve.exact', inputs: [], method: 'exact', sources: ['demo-events'], sourceKinds: 'all', k: 10, retry: { maxAttempts: 2, backoffMs: 1 } }),
  createNode('fuse', { id: 'fuse', inputs: ['retrieve.bm25', 'retrieve.exact'], strategy: 'rrf', rrfK: 60, k: 20 }),
  createNode('assemble', { id: 'assemble', inputs: ['fuse'], tokenBudget: 3000, finalK: 8 }),
  createNode('reason', { id: 'reason', inputs: ['assemble'], strategy: 'single_shot', tier: 'local', localOnly: true, requireCitations: true, maxOutputTokens: 400 }),
  createNode('branch', { id: 'check', inputs: ['reason'], condition: 'reason.cited', whenTrue: ['verify'], whenFalse: ['retry.merge'] }),
  createNode('verify', { id: 'verify', inputs: ['check'], method: 'citation' }),
  createNode('merge', { id: 'retry.merge', inputs: ['check'] }),
]);

const outcome = (tokens: number, output: unknown = {}): NodeOutcome => ({ output, actual: { tokens, costUsd: tokens / 1e6, latencySeconds: 0.01 } });

/** Fails the exact retrieval once (it has a retry), answers through a named model, takes the true branch. */
const executor: NodeExecutor = async (node, context) => {
  if (node.id === 'retrieve.exact' && context.attempt === 1) throw new Error('connection reset');
  if (node.kind === 'reason') return outcome(420, { answer: 'OOMKilled [1]', citations: [], modelCalls: [{ modelId: 'extractive-reader' }, { modelId: 'extractive-reader' }] });
  if (node.kind === 'branch') return { ...outcome(0), takenBranch: ['verify'] };
  return outcome(node.kind === 'retrieve' ? 100 : 0);
};

async function runWithProgress(listener: (event: RunProgressEvent) => void, hookLog: string[] = []) {
  const scheduler = new WaveScheduler();
  const hooks: SchedulerHooks = { onNodeDone: async (node) => void hookLog.push(`done:${node.id}`), onNodeSkipped: async (node) => void hookLog.push(`skip:${node.id}`) };
  return scheduler.run(graph, scheduler.schedule(graph, { concurrency: 1 }), executor, emptyCheckpoint, withProgress('run-1', graph, 'hash-1', hooks, listener));
}

describe('run progress over the wave scheduler', () => {
  it('announces every node, then reports each start and finish in execution order', async () => {
    const events: RunProgressEvent[] = [];
    const result = await runWithProgress((event) => events.push(event));
    expect(result.status).toBe('completed');
    expect(events[0]).toMatchObject({ type: 'run_started', runId: 'run-1', planHash: 'hash-1' });
    expect(events[0].type === 'run_started' && events[0].nodes.map((node) => node.nodeId)).toEqual(graph.nodes.map((node) => node.id));
    expect(events.slice(1).map((event) => (event.type === 'run_started' ? event.type : `${event.type}:${event.nodeId}`))).toEqual([
      'node_started:retrieve.bm25',
      'node_finished:retrieve.bm25',
      'node_started:retrieve.exact',
      'node_failed:retrieve.exact',
      'node_started:retrieve.exact',
      'node_finished:retrieve.exact',
      'node_started:fuse',
      'node_finished:fuse',
      'node_started:assemble',
      'node_finished:assemble',
      'node_started:reason',
      'node_finished:reason',
      'node_started:check',
      'node_finished:check',
      // Within a wave the scheduler settles skips before it starts the runnable nodes.
      'node_skipped:retry.merge',
      'node_started:verify',
      'node_finished:verify',
    ]);
  });

  it('carries kind, method, model, attempts, actuals and the failure reason', async () => {
    const events: RunProgressEvent[] = [];
    await runWithProgress((event) => events.push(event));
    const failed = events.find((event) => event.type === 'node_failed');
    expect(failed).toMatchObject({ nodeId: 'retrieve.exact', kind: 'retrieve', detail: 'exact · k=10', attempt: 1, willRetry: true, error: 'connection reset' });
    const retried = events.find((event) => event.type === 'node_finished' && event.nodeId === 'retrieve.exact');
    expect(retried).toMatchObject({ attempts: 2, actual: { tokens: 100 } });
    const reasoned = events.find((event) => event.type === 'node_finished' && event.nodeId === 'reason');
    expect(reasoned).toMatchObject({ kind: 'reason', detail: 'single_shot on local', models: ['extractive-reader'], actual: { tokens: 420, costUsd: 0.00042 } });
    expect(events.find((event) => event.type === 'node_skipped')).toMatchObject({ nodeId: 'retry.merge', reason: 'branch not taken' });
    const elapsed = events.flatMap((event) => (event.type === 'run_started' ? [] : [event.elapsedMs]));
    expect(elapsed).toEqual([...elapsed].sort((a, b) => a - b));
  });

  it('reports a finish only after the wrapped hook has persisted it', async () => {
    const order: string[] = [];
    await runWithProgress((event) => event.type === 'node_finished' && order.push(`event:${event.nodeId}`), order);
    expect(order.indexOf('done:fuse')).toBeLessThan(order.indexOf('event:fuse'));
    expect(order.indexOf('skip:retry.merge')).toBeGreaterThanOrEqual(0);
  });

  it('keeps running when the listener throws', async () => {
    const result = await runWithProgress(() => {
      throw new Error('viewer went away');
    });
    expect(result.status).toBe('completed');
  });

  it('describes retrieval with its source kinds and assembly with its budget', () => {
    expect(describeNode(graph.nodes[0])).toBe('bm25 · k=20 · logs');
    expect(describeNode(graph.nodes[3])).toBe('3000 token budget · top 8');
  });
});
