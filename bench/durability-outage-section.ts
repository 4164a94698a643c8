/**
 * The PostgreSQL-outage half of `npm run bench:durability` (issue 13 acceptance): 10 runs execute
 * in this process (the web server's in-process engine) on a PostgreSQL server, which is stopped
 * for 30 s while they are in flight and then started again; every run must end completed, or failed
 * with its reason, once it is back, and none may stay `running`. The server is a PRIVATE cluster
 * (`pg_createcluster 15 h5bench --port 5499`, dropped at the end), never the one tests share.
 * Needs root and Debian's postgresql-common; `--section pg-outage` runs only it.
 *
 * Measured 2026-12-02 (load average ~15 on 2 shared cores), FAIL:
 *   stopped the server after 10 model calls, 10 runs running; started it again after 32.8 s
 *   runs recorded 10: running 7, failed 2, completed 1; failed without a reason 0; run() threw for 8;
 *   last run ended 8.0 s after the restart; driver rejections left unhandled 0
 * The seven were runs the stop caught between writing their record and reading it back (startRun's
 * loadRun), a step outside continueRun's failure handling. Since that failure is recorded too, ok:
 *   stopped the server after 9 model calls, 10 runs running; started it again after 32.3 s
 *   runs recorded 10: failed 8, completed 2; failed without a reason 0; run() threw for 7; last run
 *   ended 2.0 s after the restart; driver rejections left unhandled 0 (3 of the 8: "the run stopped before it started")
 * After main stopped reading the record back, and with a deadline on every statement (a stop left
 * some unanswered for good: db/statement-deadline.ts), ok:
 *   stopped the server after 6 model calls, 10 runs running; started it again after 32.9 s
 *   runs recorded 10: failed 10; failed without a reason 0; run() threw for 10; last run ended
 *   16.1 s after the restart; driver rejections left unhandled 0; bench reads failed and retried 1
 * (The attempt before the bench retried its own reads stopped on that read: postgres.js 3.4.9
 * fails the first statement after the restart, on a connection whose statement the stop cut, with
 * the stale 57P01 "terminating connection due to administrator command".)
 * (Two earlier attempts crashed the process in postgres.js 3.4.9's nextWrite, a TypeError writing
 * to a reserved connection the stopped server had closed: the alive mark's session, which is since
 * never written to after it takes its lock.)
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { DEMO_QUESTION } from '../server/ingest/demo-corpus';
import { openRuntimeFixture, type RuntimeFixture } from '../server/testing/runtime-fixture';
import { startDurabilityModel } from './durability-model';

const CLUSTER = ['15', 'h5bench'] as const;
const PORT = Number(process.env.BENCH_OUTAGE_PORT ?? 5499);

const sh = (command: string, args: readonly string[]) => execFileSync(command, args, { stdio: ['ignore', 'pipe', 'pipe'] }).toString();
const asPostgres = (sql: string) => sh('su', ['postgres', '-c', `psql -q -p ${PORT} -c "${sql}"`]);

function createCluster(): void {
  try {
    sh('pg_dropcluster', [...CLUSTER, '--stop']);
  } catch {
    // None left from an earlier run.
  }
  sh('pg_createcluster', [...CLUSTER, '--port', String(PORT)]);
  sh('pg_ctlcluster', [...CLUSTER, 'start']);
  asPostgres("create role context_runtime login password 'context_runtime'");
  asPostgres('create database ctx_outage owner context_runtime');
}

export interface OutageOptions {
  readonly runs: number;
  readonly outageS: number;
}

/** Returns whether every run ended completed or failed with a reason. */
export async function outageSection(options: OutageOptions): Promise<boolean> {
  console.log(`pg-outage section: ${options.runs} runs in process on a private PostgreSQL 15 cluster (port ${PORT}), stopped for ${options.outageS} s mid-run`);
  try {
    createCluster();
  } catch (error) {
    console.log(`pg-outage section skipped: cannot create a private cluster (${(error as Error).message.split('\n')[0]}); it needs root and pg_createcluster`);
    return true;
  }
  // postgres.js 3.4.9 leaves its array-type query's rejection unhandled when a new connection dies
  // during it (porsager/postgres #1192, #1223): counted and printed, as it would kill a server process.
  let driverRejections = 0;
  process.on('unhandledRejection', (reason) => {
    if (String((reason as { query?: unknown } | null)?.query ?? '').includes('pg_catalog.pg_type')) driverRejections += 1;
    else throw reason;
  });
  const model = await startDurabilityModel(500);
  const root = mkdtempSync(join(tmpdir(), 'durability-outage-'));
  let fixture: RuntimeFixture | undefined;
  try {
    const config = {
      database: { url: `postgres://context_runtime:context_runtime@127.0.0.1:${PORT}/ctx_outage` },
      models: { tiers: [{ name: 'remote', provider: 'openai-compatible', base_url: model.baseURL, model: 'loop-1', quality_prior: 0.9 }, { name: 'local', provider: 'extractive' }] },
      scheduler: { backoff_ms: 200, heartbeat_ms: 1_000, orphan_after_ms: 10_000 },
      learning: { enabled: false },
      plan_cache: { enabled: false },
      limits: { runs: { max_concurrent_per_user: 1000, max_daily_spend_usd_per_user: null } },
    };
    const previous = process.cwd();
    process.chdir(root);
    fixture = await openRuntimeFixture({ root, config }).finally(() => process.chdir(previous));
    const runtime = fixture.runtime;
    const settled = Promise.allSettled(Array.from({ length: options.runs }, (_, index) => runtime.run({ goal: `${DEMO_QUESTION} (#${index + 1})` })));
    const deadline = Date.now() + 300_000;
    while (model.calls.length < 3 && Date.now() < deadline) await sleep(20);
    // "In the middle of 10 runs": the cut waits until every run has its record, as the outage test
    // does. A run whose very first insert meets the cut has nothing to end; its run() call rejects.
    while ((await runtime.listRuns({ limit: 100 })).length < options.runs && Date.now() < deadline) await sleep(20);
    const runningAtStop = (await runtime.listRuns({ limit: 100, status: 'running' })).length;
    sh('pg_ctlcluster', [...CLUSTER, 'stop']);
    const stoppedAt = Date.now();
    console.log(`  stopped the server after ${model.calls.length} model calls, ${runningAtStop} runs running`);
    await sleep(options.outageS * 1000);
    sh('pg_ctlcluster', [...CLUSTER, 'start']);
    const startedAt = Date.now();
    console.log(`  started it again after ${((startedAt - stoppedAt) / 1000).toFixed(1)} s`);
    const outcomes = await settled;
    // The bench's own reads are retried: postgres.js 3.4.9 keeps the error of a statement the stop
    // cut (57P01, "terminating connection due to administrator command") and fails the first
    // statement on that connection after the restart with it. Counted and printed.
    let failedReads = 0;
    const read = async <T>(query: () => Promise<T>): Promise<T> => {
      for (let attempt = 1; ; attempt += 1) {
        try {
          return await query();
        } catch (error) {
          failedReads += 1;
          if (attempt >= 20) throw error;
          await sleep(250);
        }
      }
    };
    let runs = await read(() => runtime.listRuns({ limit: 100 }));
    const until = Date.now() + 300_000;
    while (runs.some((run) => run.status === 'running' || run.status === 'queued') && Date.now() < until) {
      await sleep(250);
      runs = await read(() => runtime.listRuns({ limit: 100 }));
    }
    const endedMs = Math.max(...runs.map((run) => Date.parse(run.updatedAt ?? run.createdAt))) - startedAt;
    const tally = new Map<string, number>();
    let withoutReason = 0;
    const reasons = new Map<string, number>();
    for (const summary of runs) {
      const { run } = await read(() => runtime.getRun(summary.id));
      tally.set(run.status, (tally.get(run.status) ?? 0) + 1);
      if (run.status !== 'failed') continue;
      if (!run.error) withoutReason += 1;
      const reason = (run.error ?? '(none)').replace(/\s+/g, ' ').replace(/params: .*/, '').slice(0, 140);
      reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
    }
    const threw = outcomes.filter((outcome) => outcome.status === 'rejected').length;
    console.log(`  runs recorded ${runs.length}: ${[...tally].map(([status, count]) => `${status} ${count}`).join(', ')}; failed without a reason ${withoutReason}; run() threw for ${threw}; last run ended ${(endedMs / 1000).toFixed(1)} s after the restart; driver rejections left unhandled ${driverRejections}; bench reads failed and retried ${failedReads}`);
    for (const [reason, count] of reasons) console.log(`    failed ×${count}: ${reason}`);
    const ok = runs.length === options.runs && (tally.get('running') ?? 0) === 0 && (tally.get('queued') ?? 0) === 0 && withoutReason === 0;
    console.log(ok ? '  ok: every run ended completed, or failed with a reason' : '  FAIL: a run did not end, or ended without a reason');
    return ok;
  } finally {
    await fixture?.close().catch(() => undefined);
    await model.close();
    rmSync(root, { recursive: true, force: true });
    try {
      sh('pg_dropcluster', [...CLUSTER, '--stop']);
    } catch (error) {
      console.log(`  could not drop the private cluster: ${(error as Error).message.split('\n')[0]}`);
    }
  }
}
