/**
 * Runs left `running` by a process that is gone: claimed at start, then resumed from their saved
 * node outcomes, or marked failed with the reason when they cannot be resumed. Nothing stays
 * `running` without an owner that beats.
 */
import type { RunRecord } from '../contracts/run-store';
import type { RunResult } from '../explain/explain-types';
import type { RunOwnership } from './run-ownership';
import type { RuntimePlugins } from './runtime-plugins';

export interface RecoveredRun {
  readonly runId: string;
  /** How it ended after recovery (or `failed` when it could not be resumed). */
  readonly status: RunResult['status'];
  readonly error?: string;
}

export interface RecoveryOptions {
  /** Runs whose owner's heartbeat is older than this are orphans. */
  readonly staleAfterMs: number;
  /** This process alone writes the store (the embedded data directory, under its lock): any other owner is gone. */
  readonly exclusive: boolean;
}

export async function recoverOrphanedRuns(
  plugins: RuntimePlugins,
  ownership: RunOwnership,
  options: RecoveryOptions,
  resume: (record: RunRecord) => Promise<RunResult>,
): Promise<readonly RecoveredRun[]> {
  const store = plugins.runStore;
  if (!store.claimOrphans) return [];
  const claimed = await store.claimOrphans(ownership.instanceId, options.exclusive ? 0 : options.staleAfterMs);
  const recovered: RecoveredRun[] = [];
  // One after another: a restart after a crash must not start every orphan's model calls at once.
  for (const runId of claimed) {
    try {
      const record = await store.loadRun(runId);
      if (!record) continue;
      const result = await resume(record);
      recovered.push({ runId, status: result.status, ...(result.error ? { error: result.error } : {}) });
    } catch (error) {
      const reason = `the process executing this run stopped, and resuming it failed: ${error instanceof Error ? error.message : String(error)}`;
      await store.setStatus(runId, 'failed', { error: reason, pendingNodeId: null }).catch((writeError: unknown) => {
        console.warn(`run ${runId}: could not record its failure: ${writeError instanceof Error ? writeError.message : String(writeError)}`);
      });
      recovered.push({ runId, status: 'failed', error: reason });
    }
  }
  return recovered;
}
