import { describe, expect, it } from 'vitest';
import type { RunProgressEvent } from '@/server/runtime/facade/run-progress';
import { EMPTY_PROGRESS, reduceProgress, settledCount } from './progress-state';

const base = { runId: 'r', elapsedMs: 1 } as const;
const events: RunProgressEvent[] = [
  {
    type: 'run_started',
    runId: 'r',
    planHash: 'h',
    nodes: [
      { nodeId: 'retrieve', kind: 'retrieve', detail: 'bm25 · k=20' },
      { nodeId: 'reason', kind: 'reason', detail: 'single_shot on local' },
      { nodeId: 'verify', kind: 'verify', detail: 'citation' },
    ],
  },
  { ...base, type: 'node_started', nodeId: 'retrieve', kind: 'retrieve', detail: 'bm25 · k=20', attempt: 1 },
  { ...base, type: 'node_failed', nodeId: 'retrieve', kind: 'retrieve', detail: 'bm25 · k=20', attempt: 1, willRetry: true, error: 'reset' },
  { ...base, type: 'node_started', nodeId: 'retrieve', kind: 'retrieve', detail: 'bm25 · k=20', attempt: 2 },
  { ...base, type: 'node_finished', nodeId: 'retrieve', kind: 'retrieve', detail: 'bm25 · k=20', attempts: 2, actual: { tokens: 900, costUsd: 0, latencySeconds: 0.02 }, models: [] },
  { ...base, type: 'node_started', nodeId: 'reason', kind: 'reason', detail: 'single_shot on local', attempt: 1 },
];

describe('reduceProgress', () => {
  it('lists every planned node and moves each through its states', () => {
    const state = events.reduce(reduceProgress, EMPTY_PROGRESS);
    expect(state.runId).toBe('r');
    expect(state.rows.map((row) => [row.nodeId, row.status, row.attempts])).toEqual([
      ['retrieve', 'done', 2],
      ['reason', 'running', 1],
      ['verify', 'pending', 0],
    ]);
    expect(state.rows[0].note).toBeUndefined();
    expect(settledCount(state)).toBe(1);
  });

  it('shows a retry in progress and keeps the error until the node settles', () => {
    const state = events.slice(0, 3).reduce(reduceProgress, EMPTY_PROGRESS);
    expect(state.rows[0]).toMatchObject({ status: 'retrying', note: 'reset' });
  });

  it('appends a node the plan list did not name (a compensation step)', () => {
    const state = reduceProgress(events.reduce(reduceProgress, EMPTY_PROGRESS), { ...base, type: 'node_skipped', nodeId: 'undo', kind: 'merge', detail: 'merge', reason: 'all inputs skipped' });
    expect(state.rows.at(-1)).toMatchObject({ nodeId: 'undo', status: 'skipped', note: 'all inputs skipped' });
  });
});
