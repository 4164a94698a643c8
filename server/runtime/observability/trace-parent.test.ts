import { describe, expect, it } from 'vitest';
import type { NodeExecutor } from '../contracts/scheduler';
import { createNode } from '../ir/graph';
import { currentTraceParent, NodeSpanIds, withTraceParent } from './trace-parent';

const node = createNode('retrieve', { id: 'retrieve.bm25', inputs: [], method: 'bm25', sources: ['demo-logs'], sourceKinds: ['logs'], k: 20 });
const context = (attempt: number) => ({ attempt, inputs: new Map(), signal: new AbortController().signal });

describe('trace parent', () => {
  it('is seen across awaits inside the work, and not outside it', async () => {
    const seen = await withTraceParent({ runId: 'run-1', spanId: 'span-1' }, async () => {
      await new Promise((resolve) => setTimeout(resolve, 1));
      return currentTraceParent();
    });
    expect(seen).toEqual({ runId: 'run-1', spanId: 'span-1' });
    expect(currentTraceParent()).toBeUndefined();
  });

  it('runs each node attempt under its own span id, which the node span is then recorded with', async () => {
    const parents: unknown[] = [];
    const executor: NodeExecutor = async () => {
      await Promise.resolve();
      parents.push(currentTraceParent());
      return { output: null, actual: { tokens: 0, costUsd: 0, latencySeconds: 0 } };
    };
    const ids = new NodeSpanIds('run-7');
    const wrapped = ids.wrap(executor);
    await wrapped(node, context(1));
    await wrapped(node, context(2));
    expect(parents).toEqual([
      { runId: 'run-7', spanId: ids.of(node.id, 1) },
      { runId: 'run-7', spanId: ids.of(node.id, 2) },
    ]);
    expect(ids.of(node.id, 1)).not.toBe(ids.of(node.id, 2));
    expect(ids.of('never-ran', 1)).toBeUndefined();
  });
});
