/**
 * Cancelling a running run or one waiting at a gate, as the user who started it or an admin. The
 * run is marked `cancelled` first, only from a state that has not ended (so nothing later
 * overwrites it and an ended run is refused, not rewritten); then its in-flight calls abort.
 */
import type { RunRecord, RunStorePlugin as RunStore } from '../contracts/run-store';
import { ContextRuntimeError } from '../errors';
import type { RunResult } from '../explain/explain-types';
import type { Principal } from '../types';
import { toRunResult, type StoredPlan } from './execute-run';
import { isAdmin } from './ingest-request';
import type { RunOwnership } from './run-ownership';

const CANCELLABLE = ['queued', 'running', 'awaiting_approval'] as const;

export async function cancelRun(runStore: RunStore, ownership: RunOwnership, record: RunRecord, canceller: Principal): Promise<RunResult> {
  const runId = record.id;
  if (record.user !== canceller.user && !isAdmin(canceller)) {
    throw new ContextRuntimeError('FORBIDDEN', `only ${record.user}, who started run ${runId}, or an admin may cancel it`, { field: 'runId' });
  }
  const reason = `cancelled by ${canceller.user}`;
  const written = await runStore.setStatus(runId, 'cancelled', { error: reason, pendingNodeId: null, onlyIf: [...CANCELLABLE] });
  if (written === false || !(CANCELLABLE as readonly string[]).includes(record.status)) {
    const now = (await runStore.loadRun(runId))?.status ?? record.status;
    throw new ContextRuntimeError('CONFLICT', `run ${runId} has already ended (status ${now})`, { field: 'runId', details: { runId, status: now } });
  }
  ownership.abort(runId, reason);
  const { explain } = record.plan as StoredPlan;
  return toRunResult((await runStore.loadRun(runId))!, explain, explain.graph);
}
