import { describe, expect, it } from 'vitest';
import type { RunStorePlugin, SavedNodeOutcome } from '../contracts/run-store';
import type { NodeOutcome } from '../contracts/scheduler';
import { createNode, type GraphNode } from '../ir/graph';
import { isCostlyToRepeat, mustKeepAtOnce, OutcomeCheckpoint } from './outcome-checkpoint';

const outcome = (costUsd = 0, modelTokens?: number): NodeOutcome => ({ output: {}, actual: { tokens: 10, costUsd, latencySeconds: 0.01, ...(modelTokens !== undefined ? { modelTokens } : {}) } });
const retrieve = (id: string, extra: Partial<GraphNode> = {}) => ({ ...createNode('retrieve', { id, inputs: [], method: 'bm25', sources: ['demo-logs'], sourceKinds: 'all', k: 5 }), ...extra }) as GraphNode;
const fuse = createNode('fuse', { id: 'fuse', inputs: ['a', 'b'], strategy: 'rrf', rrfK: 60, k: 20 });
const reason = createNode('reason', { id: 'reason', inputs: ['fuse'], strategy: 'single_shot', tier: 'cheap', localOnly: false, requireCitations: true, maxOutputTokens: 600 });

function recordingStore(batches: boolean) {
  const writes: string[][] = [];
  const store = {
    saveNodeOutcome: async (_runId: string, nodeId: string) => void writes.push([nodeId]),
    markSkipped: async (_runId: string, nodeId: string) => void writes.push([`skip:${nodeId}`]),
    ...(batches
      ? { saveNodeOutcomes: async (_runId: string, entries: readonly SavedNodeOutcome[], skipped: readonly string[] = []) => void writes.push([...entries.map((entry) => entry.nodeId), ...skipped.map((nodeId) => `skip:${nodeId}`)]) }
      : {}),
  } as unknown as RunStorePlugin;
  return { store, writes };
}

describe('when node outcomes are written', () => {
  it('keeps at once what cost money, a decision or a side effect; cheap repeatable work waits', () => {
    expect(mustKeepAtOnce(retrieve('a'), outcome())).toBe(false);
    expect(mustKeepAtOnce(fuse, outcome())).toBe(false);
    expect([isCostlyToRepeat(fuse), isCostlyToRepeat(reason)]).toEqual([false, true]);
    expect(mustKeepAtOnce(reason, outcome())).toBe(true);
    // An LLM reranker behind a retrieve node spends model tokens: not repeated for free.
    expect(mustKeepAtOnce(retrieve('a'), outcome(0.002, 900))).toBe(true);
    expect(mustKeepAtOnce(retrieve('a', { compensation: 'undo' }), outcome())).toBe(true);
    expect(mustKeepAtOnce(createNode('approve', { id: 'approve', inputs: [], reason: 'high risk' } as never), outcome())).toBe(true);
  });

  it('writes the waiting outcomes in one statement, in completion order, with the model call that follows them, then the rest at the end', async () => {
    const { store, writes } = recordingStore(true);
    let spanFlushes = 0;
    const checkpoint = new OutcomeCheckpoint(store, 'run-1', async () => void (spanFlushes += 1));
    await checkpoint.done(retrieve('b'), outcome(), 1);
    await checkpoint.done(retrieve('a'), outcome(), 1);
    await checkpoint.done(fuse, outcome(), 1);
    expect(writes).toEqual([]);
    await checkpoint.done(reason, outcome(0.001), 1);
    expect(writes).toEqual([['b', 'a', 'fuse', 'reason']]);
    expect(spanFlushes).toBe(1);
    await checkpoint.done(createNode('verify', { id: 'verify', inputs: ['reason'], method: 'citation_grounded' }), outcome(), 1);
    await checkpoint.write();
    await checkpoint.write();
    expect(writes).toEqual([['b', 'a', 'fuse', 'reason'], ['verify']]);
  });

  it('writes what a model call builds on before the call starts, so a crash during it resumes at the call', async () => {
    const { store, writes } = recordingStore(true);
    let spanFlushes = 0;
    const checkpoint = new OutcomeCheckpoint(store, 'run-1', async () => void (spanFlushes += 1));
    await checkpoint.done(retrieve('a'), outcome(), 1);
    await checkpoint.before(fuse);
    expect(writes).toEqual([]);
    await checkpoint.done(fuse, outcome(), 1);
    await checkpoint.before(reason);
    expect(writes).toEqual([['a', 'fuse']]);
    expect(spanFlushes).toBe(1);
    // Nothing waiting: no empty write.
    await checkpoint.before(reason);
    expect([writes.length, spanFlushes]).toEqual([1, 1]);
  });

  it('saves one at a time, in order, on a store without batch writes', async () => {
    const { store, writes } = recordingStore(false);
    const checkpoint = new OutcomeCheckpoint(store, 'run-1', async () => undefined);
    await checkpoint.done(retrieve('a'), outcome(), 1);
    checkpoint.skipped('retry');
    await checkpoint.done(reason, outcome(0.001), 1);
    expect(writes).toEqual([['a'], ['reason'], ['skip:retry']]);
  });

  it('writes skipped nodes with the next outcomes, not on their own before a model call', async () => {
    const { store, writes } = recordingStore(true);
    let spanFlushes = 0;
    const checkpoint = new OutcomeCheckpoint(store, 'run-1', async () => void (spanFlushes += 1));
    checkpoint.skipped('branch-a');
    // Only skips waiting: the scheduler decides them again on resume, so no write before the call.
    await checkpoint.before(reason);
    expect([writes, spanFlushes]).toEqual([[], 0]);
    await checkpoint.done(retrieve('b'), outcome(), 1);
    checkpoint.skipped('branch-c');
    await checkpoint.done(reason, outcome(0.001), 1);
    expect(writes).toEqual([['b', 'reason', 'skip:branch-a', 'skip:branch-c']]);
    checkpoint.skipped('retry');
    await checkpoint.write();
    await checkpoint.write();
    expect(writes).toEqual([['b', 'reason', 'skip:branch-a', 'skip:branch-c'], ['skip:retry']]);
  });

  it('writes what still waits with the run\'s status, in one write where the store can, else before it', async () => {
    const statuses: unknown[][] = [];
    const { store, writes } = recordingStore(true);
    const combined = {
      ...store,
      setStatus: async (_runId: string, status: string) => void statuses.push(['status', status]),
      setStatusWithOutcomes: async (_runId: string, status: string, _fields: unknown, entries: readonly SavedNodeOutcome[], skipped: readonly string[] = []) => {
        statuses.push(['status+outcomes', status, entries.map((entry) => entry.nodeId), skipped]);
        return true;
      },
    } as unknown as RunStorePlugin;
    const checkpoint = new OutcomeCheckpoint(combined, 'run-1', async () => undefined);
    await checkpoint.done(retrieve('a'), outcome(), 1);
    checkpoint.skipped('retry');
    expect(await checkpoint.writeWithStatus('completed', { onlyIf: ['running'] })).toBe(true);
    expect(statuses).toEqual([['status+outcomes', 'completed', ['a'], ['retry']]]);
    // Taken: nothing is written twice.
    await checkpoint.write();
    expect(writes).toEqual([]);

    const plain = recordingStore(true);
    const order: string[] = [];
    const separate = { ...plain.store, saveNodeOutcomes: async (_runId: string, entries: readonly SavedNodeOutcome[]) => void order.push(`outcomes:${entries.map((entry) => entry.nodeId).join(',')}`), setStatus: async (_runId: string, status: string) => void order.push(`status:${status}`) } as unknown as RunStorePlugin;
    const fallback = new OutcomeCheckpoint(separate, 'run-2', async () => undefined);
    await fallback.done(retrieve('b'), outcome(), 1);
    await fallback.writeWithStatus('failed', { error: 'node b failed' });
    expect(order).toEqual(['outcomes:b', 'status:failed']);
  });
});
