/**
 * How long graphile-worker takes to start a job added to an idle queue: the delay every wave of a
 * queued run pays once per job. A no-op task in an in-process runner with a 10 s fallback poll, so
 * what is measured is the LISTEN/NOTIFY wake-up and the `SKIP LOCKED` take, not polling. (pg-boss
 * 10.x workers poll, `pollingIntervalSeconds` default 2, at least 0.5: its docs/api/workers.md.)
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { makeWorkerUtils, run } from 'graphile-worker';
import { quietLogger } from '../server/adapters/jobs/graphile-scheduler';

const PROBE_TASK = 'context_runtime_pickup_probe';

/** Milliseconds from addJob resolving to the task starting, sorted, for `jobs` jobs added one at a time. */
export async function measureJobPickup(connectionString: string, jobs = 30): Promise<readonly number[]> {
  const started = new Map<number, number>();
  const runner = await run({
    connectionString,
    concurrency: 1,
    noHandleSignals: true,
    pollInterval: 10_000,
    logger: quietLogger,
    taskList: { [PROBE_TASK]: async (payload) => void started.set((payload as { index: number }).index, performance.now()) },
  });
  const utils = await makeWorkerUtils({ connectionString, logger: quietLogger });
  const delays: number[] = [];
  try {
    // Let the runner's LISTEN connection settle before the first job.
    await sleep(500);
    for (let index = 0; index < jobs; index++) {
      await utils.addJob(PROBE_TASK, { index });
      const added = performance.now();
      const deadline = added + 15_000;
      while (!started.has(index) && performance.now() < deadline) await sleep(1);
      delays.push((started.get(index) ?? Number.POSITIVE_INFINITY) - added);
      await sleep(50);
    }
  } finally {
    await utils.release();
    await runner.stop();
  }
  return delays.sort((a, b) => a - b);
}
