/**
 * Issue 13: the PostgreSQL server goes away in the middle of runs executing in this process (every
 * connection reset, new ones refused, for a few seconds), then comes back. Every run must end
 * completed, or failed with its reason, once the database answers again: none stays `running`
 * (before, the write marking a run failed failed too and was never retried). The outage is a TCP
 * proxy cutting the connections (server/testing/loopback-tcp-proxy.ts), so the shared server keeps
 * running; `npm run bench:durability -- --section pg-outage` stops a real private cluster for 30 s.
 * Runs only when TEST_DATABASE_URL is set; it uses a database of its own, `context_runtime_outage`
 * (.ci/run creates it; locally: su postgres -c "createdb -O context_runtime context_runtime_outage"), and wipes THAT.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { openDatabase } from '../../db/client';
import { DEMO_QUESTION } from '../ingest/demo-corpus';
import { startLoopbackOpenAIServer, type LoopbackOpenAIServer } from '../testing/loopback-openai-server';
import { startTcpProxy, type TcpProxy } from '../testing/loopback-tcp-proxy';
import { openRuntimeFixture, type RuntimeFixture } from '../testing/runtime-fixture';

function outageUrl(testUrl: string | undefined): URL | undefined {
  if (!testUrl) return undefined;
  const url = new URL(testUrl);
  // OUTAGE_DATABASE: another database, when two checkouts run this test against one server at once.
  url.pathname = `/${process.env.OUTAGE_DATABASE ?? 'context_runtime_outage'}`;
  return url;
}

const url = outageUrl(process.env.TEST_DATABASE_URL);
const RUNS = 3;
const OUTAGE_MS = 4_000;
const STATEMENT_DEADLINE_MS = 3_000;
/** How long the stalled server stays silent: room for a few statements, each failing at the deadline. */
const STALL_MS = 30_000;
let proxy: TcpProxy;
let model: LoopbackOpenAIServer;
let fixture: RuntimeFixture;

/**
 * The run's record, or undefined while the server is still unreachable. Bounded: a read issued
 * during the cut was seen never to answer at all (postgres.js 3.4.9 left it queued for good after
 * the restore, while later queries went through), so the next poll asks again.
 */
async function readRun(runId: string) {
  let timer: NodeJS.Timeout | undefined;
  const unanswered = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), 3_000)));
  const read = fixture.runtime.getRun(runId).then(
    ({ run }) => run,
    () => undefined,
  );
  return Promise.race([read, unanswered]).finally(() => clearTimeout(timer));
}

/** Polls the run's record until it is no longer running (or the time is up), and returns it. */
async function settledRun(runId: string, withinMs: number) {
  const until = Date.now() + withinMs;
  let run = await readRun(runId);
  while ((run === undefined || run.status === 'running') && Date.now() < until) {
    await sleep(250);
    run = await readRun(runId);
  }
  return run;
}

describe.skipIf(!url)('runs while the PostgreSQL server is unreachable for a few seconds', () => {
  // postgres.js 3.4.9 drops the promise of its array-type query on a new connection (porsager/postgres
  // #1192, #1223, open): a connection reset while it runs escapes as an unhandled rejection no caller
  // can catch, in any case here. Counted and printed, not hidden: it is the driver's, and a process
  // it kills is recovered as any killed process is.
  const driverRejections: unknown[] = [];
  const onRejection = (reason: unknown) => {
    if (String((reason as { query?: unknown } | null)?.query ?? '').includes('pg_catalog.pg_type')) driverRejections.push(reason);
    else throw reason;
  };

  beforeAll(async () => {
    process.on('unhandledRejection', onRejection);
    const wipe = await openDatabase({ url: url!.toString() });
    await wipe.exec('DROP SCHEMA IF EXISTS drizzle CASCADE; DROP SCHEMA IF EXISTS public CASCADE; CREATE SCHEMA public;');
    await wipe.close();
    proxy = await startTcpProxy({ host: url!.hostname, port: Number(url!.port || 5432) });
    const proxied = new URL(url!);
    proxied.port = String(proxy.port);
    model = await startLoopbackOpenAIServer({ text: 'The checkout-api pods ran out of memory [1].', delayMs: 1_500 });
    const root = mkdtempSync(join(tmpdir(), 'context-runtime-pg-outage-'));
    const config = {
      // Short, so a statement the outage leaves unanswered fails within the test (statement-deadline.ts).
      database: { url: proxied.toString(), statement_deadline_ms: STATEMENT_DEADLINE_MS },
      models: { tiers: [{ name: 'remote', provider: 'openai-compatible', base_url: model.baseURL, model: 'loop-1', quality_prior: 0.9 }, { name: 'local', provider: 'extractive' }] },
      scheduler: { backoff_ms: 100, max_attempts: 2, heartbeat_ms: 500, orphan_after_ms: 5_000 },
      learning: { enabled: false },
      plan_cache: { enabled: false },
      // The loopback's reply is no judge verdict; the gate's judge call and retry are not the subject here.
      verification: { judge: false },
      limits: { runs: { max_concurrent_per_user: 1000, max_daily_spend_usd_per_user: null } },
    };
    // With a server URL, bootstrap rebuilds the demo git repository under ./.data of the working directory.
    const previous = process.cwd();
    process.chdir(root);
    fixture = await openRuntimeFixture({ root, config }).finally(() => process.chdir(previous));
  }, 120_000);

  afterAll(async () => {
    process.off('unhandledRejection', onRejection);
    if (driverRejections.length > 0) console.warn(`postgres.js array-type query rejections left unhandled by the driver: ${driverRejections.length}`);
    proxy?.restore();
    await fixture?.close();
    await model?.close();
    await proxy?.close();
  }, 30_000);

  it('every run ends (completed, unverified, or failed with a reason) once the server is back; none stays running', async () => {
    const before = model.calls.length;
    const settled = Promise.allSettled(Array.from({ length: RUNS }, (_, index) => fixture.runtime.run({ goal: `${DEMO_QUESTION} (#${index + 1})` })));
    // The outage starts while the runs wait on their model calls: their next writes meet a dead server.
    const deadline = Date.now() + 60_000;
    while (model.calls.length - before < 2 && Date.now() < deadline) await sleep(20);
    expect(model.calls.length - before).toBeGreaterThanOrEqual(2);
    // Every run's record must exist before the cut: a run whose first insert meets the dead server
    // has no record to end (run() throws to its caller), which is not the case under test here.
    while ((await fixture.runtime.listRuns({ limit: 100 })).length < RUNS && Date.now() < deadline) await sleep(20);
    expect(await fixture.runtime.listRuns({ limit: 100 })).toHaveLength(RUNS);
    proxy.cut();
    await sleep(OUTAGE_MS);
    proxy.restore();
    expect(proxy.resets).toBeGreaterThan(0);
    const outcomes = await settled;
    // Whatever run() said to its caller, the record must end: read until nothing is running.
    let runs = await fixture.runtime.listRuns({ limit: 100 });
    const until = Date.now() + 120_000;
    while (runs.some((run) => run.status === 'running' || run.status === 'queued') && Date.now() < until) {
      await sleep(250);
      runs = await fixture.runtime.listRuns({ limit: 100 });
    }
    expect(runs).toHaveLength(RUNS);
    for (const summary of runs) {
      const { run } = await fixture.runtime.getRun(summary.id);
      // An ended run: answered (verified or, with its reasons, not), or failed with its reason.
      expect(['completed', 'unverified', 'failed']).toContain(run.status);
      if (run.status === 'failed') expect(run.error).toMatch(/\S/);
    }
    console.log(`outage of ${OUTAGE_MS} ms: run() ${outcomes.map((outcome) => (outcome.status === 'fulfilled' ? outcome.value.status : 'threw')).join(', ')}; records ${runs.map((run) => run.status).join(', ')}`);
  }, 400_000);

  it('a run whose record was just written when the server went away ends failed with its reason', async () => {
    // The bench's 30 s stop under load caught runs between writing their record and reading it back
    // (startRun), a step outside the run's failure handling: they stayed `running`, owned by a live
    // process, so no recovery took them. Here the cut lands exactly there, after the first insert.
    const store = fixture.plugins.runStore;
    const createRun = store.createRun.bind(store);
    let createdId: string | undefined;
    store.createRun = async (run) => {
      await createRun(run);
      if (createdId !== undefined) return;
      createdId = run.id;
      proxy.cut();
      setTimeout(() => proxy.restore(), OUTAGE_MS).unref();
    };
    onTestFinished(() => {
      store.createRun = createRun;
      proxy.restore();
    });
    await expect(fixture.runtime.run({ goal: `${DEMO_QUESTION} (cut after its record)` })).rejects.toThrow();
    expect(createdId).toBeDefined();
    // The failure is written once the server answers again (retried from 1 s, doubling): well within 30 s of the restore.
    const run = await settledRun(createdId!, OUTAGE_MS + 30_000);
    expect(run?.status).toBe('failed');
    expect(run?.error).toMatch(/\S/);
  }, 120_000);

  it('a run whose record reached the server but whose answer was lost ends failed with its reason', async () => {
    // The insert commits, the connection dies before its answer: createRun throws with the record
    // there, `running`, owned by this live process, which no recovery takes over. startRun records
    // the failure itself (retried until the database answers).
    const store = fixture.plugins.runStore;
    const createRun = store.createRun.bind(store);
    let createdId: string | undefined;
    store.createRun = async (run) => {
      if (createdId === undefined) {
        createdId = run.id;
        proxy.cutAfter(run.id);
        setTimeout(() => proxy.restore(), OUTAGE_MS).unref();
      }
      return createRun(run);
    };
    onTestFinished(() => {
      store.createRun = createRun;
      proxy.restore();
    });
    await expect(fixture.runtime.run({ goal: `${DEMO_QUESTION} (answer to its insert lost)` })).rejects.toThrow();
    const run = await settledRun(createdId!, OUTAGE_MS + 30_000);
    // Defined: the insert did reach the server (else there would be nothing to leave running).
    expect(run?.status).toBe('failed');
    expect(run?.error).toMatch(/stopped before it started/);
  }, 120_000);

  it('a run whose database stops answering, resetting nothing, ends before it answers again', async () => {
    // A partition, not a stop: no connection is reset, so without a deadline a run's next statement
    // waits on its dead connection with no end, and the run never reaches its failure handling.
    const before = model.calls.length;
    const started = fixture.runtime.run({ goal: `${DEMO_QUESTION} (stalled)` });
    const ended = started.then(
      (result) => `ended ${result.status}`,
      (error: unknown) => `threw ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`,
    );
    const deadline = Date.now() + 60_000;
    while (model.calls.length === before && Date.now() < deadline) await sleep(20);
    const runId = (await fixture.runtime.listRuns({ limit: 1 }))[0]!.id;
    proxy.stall();
    onTestFinished(() => proxy.restore());
    // Its statements fail within the deadline, and so does the first write of its failure: run()
    // answers while the database is still silent (a write within the model call's 1.5 s, and two deadlines).
    const stalledAt = Date.now();
    const answer = await Promise.race([ended, sleep(STALL_MS).then(() => 'still waiting')]);
    proxy.restore();
    console.log(`database stalled: run() ${answer} after ${Date.now() - stalledAt} ms`);
    expect(answer).not.toBe('still waiting');
    const run = await settledRun(runId, 30_000);
    expect(['completed', 'failed']).toContain(run?.status);
    if (run?.status === 'failed') expect(run.error).toMatch(/\S/);
  }, 120_000);
});
