/**
 * The same measurement as job-pickup-probe.ts on pg-boss 10.x (the other engine issue 13 allows on
 * Node 20), so the README's choice of graphile-worker rests on figures measured side by side: how
 * long a job sent to an idle queue waits before a worker starts it. pg-boss workers poll
 * (`pollingIntervalSeconds`, default 2, at least 0.5); it is measured at the interval given. Its
 * tables live in a schema of their own (`pgboss_probe`), dropped afterwards.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import PgBoss from 'pg-boss';
import { openDatabase } from '../db/client';

const PROBE_QUEUE = 'context_runtime_pickup_probe';
const SCHEMA = 'pgboss_probe';

/** Milliseconds from send() resolving to the handler starting, sorted, for `jobs` jobs sent one at a time. */
export async function measurePgBossPickup(connectionString: string, pollingIntervalSeconds: number, jobs = 30): Promise<readonly number[]> {
  const boss = new PgBoss({ connectionString, schema: SCHEMA, supervise: false, schedule: false });
  boss.on('error', (error: Error) => console.warn(`pg-boss: ${error.message}`));
  await boss.start();
  const started = new Map<number, number>();
  const delays: number[] = [];
  try {
    await boss.createQueue(PROBE_QUEUE);
    await boss.work<{ index: number }>(PROBE_QUEUE, { pollingIntervalSeconds, batchSize: 1 }, async ([job]) => void started.set(job.data.index, performance.now()));
    await sleep(500);
    for (let index = 0; index < jobs; index++) {
      await boss.send(PROBE_QUEUE, { index });
      const sent = performance.now();
      const deadline = sent + 15_000;
      while (!started.has(index) && performance.now() < deadline) await sleep(1);
      delays.push((started.get(index) ?? Number.POSITIVE_INFINITY) - sent);
      // A random phase against the poll, as waves of real runs arrive.
      await sleep(50 + Math.random() * pollingIntervalSeconds * 1000);
    }
  } finally {
    await boss.stop({ graceful: false, wait: true });
    const database = await openDatabase({ url: connectionString });
    await database.exec(`DROP SCHEMA IF EXISTS ${SCHEMA} CASCADE`);
    await database.close();
  }
  return delays.sort((a, b) => a - b);
}
