/**
 * The write that marks a run failed must outlive the failure that caused it. When the database
 * itself went away (a PostgreSQL restart, a network cut), that write fails too; left there, the run
 * would stay `running` while its process lives on, since its owner is alive and nobody claims it.
 * So a failed write is retried in the background, backing off to every 30 s, for as long as this
 * process lives: once the database is back the run ends `failed` with its reason. A process that
 * dies first leaves the run to the orphan recovery of the next start (run-recovery.ts).
 */
import type { RunStorePlugin } from '../contracts/run-store';
import { ContextRuntimeError } from '../errors';

export interface FailureWriteOptions {
  /** Only while this process owns the run: a peer that took it over meanwhile keeps it. */
  readonly owner?: string;
  /** First retry delay, doubled each time up to 30 s. */
  readonly firstDelayMs?: number;
}

const MAX_DELAY_MS = 30_000;

/**
 * Marks the run failed now, or keeps trying in the background. Resolves with the first attempt's
 * outcome (true: written or no longer this process's to write); `settled` resolves once a write went through.
 */
export async function recordRunFailure(store: RunStorePlugin, runId: string, reason: string, options: FailureWriteOptions = {}): Promise<{ readonly written: boolean; readonly settled: Promise<void> }> {
  const write = () => store.setStatus(runId, 'failed', { error: reason, pendingNodeId: null, onlyIf: ['running'], ...(options.owner ? { onlyOwner: options.owner } : {}) });
  try {
    await write();
    return { written: true, settled: Promise.resolve() };
  } catch (error) {
    // No record to mark: its insert never reached the database (startRun calls this when it cannot tell).
    if (isMissingRun(error)) return { written: true, settled: Promise.resolve() };
    // The first line only: a failed query's message goes on to quote its parameters (passages among them).
    const why = (error instanceof Error ? error.message : String(error)).split('\n')[0].slice(0, 200);
    console.warn(`run ${runId}: could not record its failure (${why}); retrying until the database answers`);
  }
  const settled = new Promise<void>((resolve) => {
    let delayMs = options.firstDelayMs ?? 1_000;
    const attempt = () => {
      write().then(
        () => {
          console.warn(`run ${runId}: its failure is recorded now that the database answers`);
          resolve();
        },
        (error: unknown) => {
          if (isMissingRun(error)) return resolve();
          delayMs = Math.min(MAX_DELAY_MS, delayMs * 2);
          schedule();
        },
      );
    };
    // Unref'd: a process that is otherwise done exits, and the next start recovers the run.
    const schedule = () => setTimeout(attempt, delayMs).unref();
    schedule();
  });
  return { written: false, settled };
}

const isMissingRun = (error: unknown) => error instanceof ContextRuntimeError && error.code === 'NOT_FOUND';
