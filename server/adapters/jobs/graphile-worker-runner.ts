/**
 * A `context-runtime worker` process's engine: graphile-worker's runner taking run-wave jobs with
 * up to `concurrency` at once. Each job calls back into the runtime, which claims the run and
 * executes one wave; a job for a run that is no longer queued does nothing.
 */
import { run, type Runner } from 'graphile-worker';
import { invalidInput } from '../../runtime/errors';
import { quietLogger, RUN_WAVE_TASK } from './graphile-scheduler';

export interface WorkerRunnerOptions {
  readonly connectionString: string;
  readonly concurrency: number;
  /** Executes the next wave of a queued run (ContextRuntime.executeQueuedWave). */
  readonly executeWave: (runId: string) => Promise<unknown>;
  /** Fallback polling for jobs due later (retries); new jobs arrive by LISTEN/NOTIFY. */
  readonly pollIntervalMs?: number;
}

function runIdOf(payload: unknown): string {
  const runId = (payload as { runId?: unknown } | null)?.runId;
  if (typeof runId !== 'string' || runId.length === 0) throw invalidInput('payload.runId', `expected a run id, got ${JSON.stringify(payload)}`);
  return runId;
}

export async function startWorkerRunner(options: WorkerRunnerOptions): Promise<Runner> {
  if (!Number.isInteger(options.concurrency) || options.concurrency < 1 || options.concurrency > 64) {
    throw invalidInput('--concurrency', `expected an integer from 1 to 64, got ${options.concurrency}`);
  }
  return run({
    connectionString: options.connectionString,
    concurrency: options.concurrency,
    // The process owns its signals: the CLI stops the runner, then closes the runtime.
    noHandleSignals: true,
    pollInterval: options.pollIntervalMs ?? 2_000,
    // One connection per concurrent job plus the listener and the pool's own use.
    maxPoolSize: options.concurrency + 2,
    logger: quietLogger,
    taskList: {
      [RUN_WAVE_TASK]: async (payload) => {
        await options.executeWave(runIdOf(payload));
      },
    },
  });
}
