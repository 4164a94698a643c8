/**
 * The run-wave jobs GraphileScheduler adds, read back from graphile-worker's tables on a real
 * PostgreSQL server (TEST_DATABASE_URL; no worker runs, and the jobs are removed after). A run under
 * way is taken before runs not started, and a sweep's re-enqueue leaves a waiting job in its place.
 */
import { randomUUID } from 'node:crypto';
import { makeWorkerUtils, type WorkerUtils } from 'graphile-worker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GraphileScheduler, quietLogger } from './graphile-scheduler';

const url = process.env.TEST_DATABASE_URL;
let scheduler: GraphileScheduler;
let utils: WorkerUtils;
const prefix = `test-${randomUUID()}`;

interface JobRow {
  readonly id: string;
  readonly key: string;
  readonly priority: number;
  readonly revision: number;
}

/** This file's jobs, in the order a worker would take them. */
const jobs = () =>
  utils.withPgClient(async (client) => (await client.query<JobRow>(`select id, key, priority, revision from graphile_worker.jobs where key like $1 order by priority, run_at, id`, [`run:${prefix}%`])).rows);

describe.skipIf(!url)('run-wave jobs on graphile-worker', () => {
  beforeAll(async () => {
    scheduler = new GraphileScheduler(url!);
    await scheduler.migrate();
    utils = await makeWorkerUtils({ connectionString: url!, logger: quietLogger });
  }, 60_000);

  afterAll(async () => {
    const left = await jobs().catch(() => [] as JobRow[]);
    if (left.length > 0) await utils.completeJobs(left.map((job) => job.id));
    await utils?.release();
    await scheduler?.close();
  });

  it('takes a run under way before runs not started, and one job per run', async () => {
    await scheduler.enqueue(`${prefix}-new-1`);
    await scheduler.enqueue(`${prefix}-new-2`);
    await scheduler.enqueue(`${prefix}-resumed`, { resumed: true });
    await scheduler.enqueue(`${prefix}-new-1`);
    const order = (await jobs()).map((job) => job.key);
    expect(order[0]).toBe(`run:${prefix}-resumed`);
    expect([...order].sort()).toEqual([`run:${prefix}-new-1`, `run:${prefix}-new-2`, `run:${prefix}-resumed`]);
  });

  it('leaves a waiting job alone when asked unlessWaiting, and adds one when none waits', async () => {
    const before = (await jobs()).find((job) => job.key === `run:${prefix}-new-2`)!;
    await scheduler.enqueue(`${prefix}-new-2`, { resumed: true, unlessWaiting: true });
    const after = (await jobs()).find((job) => job.key === `run:${prefix}-new-2`)!;
    expect(after).toEqual(before);
    await scheduler.enqueue(`${prefix}-lost`, { resumed: true, unlessWaiting: true });
    expect((await jobs()).map((job) => job.key)).toContain(`run:${prefix}-lost`);
  });
});
