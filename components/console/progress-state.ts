/**
 * Folds the streamed run events into one row per graph node, in plan order, so the list shows
 * what is pending as well as what ran. Pure: the hook feeds it, the list renders it.
 */
import type { NodeEstimate, NodeKind } from '@/server/runtime/ir/graph';
import type { RunProgressEvent } from '@/server/runtime';

export type NodeProgressStatus = 'pending' | 'running' | 'retrying' | 'done' | 'skipped' | 'failed';

export interface NodeProgressRow {
  readonly nodeId: string;
  readonly kind: NodeKind;
  readonly detail: string;
  readonly status: NodeProgressStatus;
  readonly attempts: number;
  readonly models: readonly string[];
  readonly actual?: NodeEstimate;
  /** Why it was skipped, or the last error. */
  readonly note?: string;
  readonly elapsedMs?: number;
}

export interface RunProgressState {
  readonly runId?: string;
  readonly planHash?: string;
  readonly rows: readonly NodeProgressRow[];
}

export const EMPTY_PROGRESS: RunProgressState = Object.freeze({ rows: Object.freeze([]) });

function update(state: RunProgressState, nodeId: string, change: (row: NodeProgressRow) => NodeProgressRow, fallback: Omit<NodeProgressRow, 'status' | 'attempts' | 'models'>): RunProgressState {
  const index = state.rows.findIndex((row) => row.nodeId === nodeId);
  // A node the run_started list did not name (a compensation step) is appended when it first reports.
  const current = index >= 0 ? state.rows[index] : { ...fallback, status: 'pending' as const, attempts: 0, models: [] };
  const rows = index >= 0 ? state.rows.map((row, position) => (position === index ? change(row) : row)) : [...state.rows, change(current)];
  return { ...state, rows };
}

export function reduceProgress(state: RunProgressState, event: RunProgressEvent): RunProgressState {
  if (event.type === 'run_started') {
    return { runId: event.runId, planHash: event.planHash, rows: event.nodes.map((node) => ({ ...node, status: 'pending', attempts: 0, models: [] })) };
  }
  const fallback = { nodeId: event.nodeId, kind: event.kind, detail: event.detail };
  switch (event.type) {
    case 'node_started':
      return update(state, event.nodeId, (row) => ({ ...row, status: 'running', attempts: event.attempt, elapsedMs: event.elapsedMs }), fallback);
    case 'node_finished':
      return update(state, event.nodeId, (row) => ({ ...row, status: 'done', attempts: event.attempts, actual: event.actual, models: event.models, note: undefined, elapsedMs: event.elapsedMs }), fallback);
    case 'node_skipped':
      return update(state, event.nodeId, (row) => ({ ...row, status: 'skipped', note: event.reason, elapsedMs: event.elapsedMs }), fallback);
    case 'node_failed':
      return update(state, event.nodeId, (row) => ({ ...row, status: event.willRetry ? 'retrying' : 'failed', attempts: event.attempt, note: event.error, elapsedMs: event.elapsedMs }), fallback);
  }
}

/** "3 of 7 nodes" for the live status line. */
export function settledCount(state: RunProgressState): number {
  return state.rows.filter((row) => row.status === 'done' || row.status === 'skipped' || row.status === 'failed').length;
}
