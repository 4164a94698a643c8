/**
 * Runs queued on graphile-worker and executed by real `context-runtime worker` child processes
 * against a loopback model server that counts, per run, the calls it answered. Runs only when
 * TEST_DATABASE_URL is set; it uses a database of its own, `context_runtime_workers` on the same
 * server (.ci/run creates it; locally: su postgres -c "createdb -O context_runtime context_runtime_workers"),
 * and wipes THAT.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openDatabase } from '../../db/client';
import { DEMO_QUESTION } from '../ingest/demo-corpus';
import type { RunResult } from '../runtime/explain/explain-types';
import type { RunProgressEvent } from '../runtime/facade/run-progress';
import { startCountingModelServer, type CountingModelServer } from '../testing/loopback-counting-model-server';
import { openRuntimeFixture, writeConfig, type RuntimeFixture } from '../testing/runtime-fixture';
import { main } from './main';

function workersUrl(testUrl: string | undefined): string | undefined {
  if (!testUrl) return undefined;
  const url = new URL(testUrl);
  url.pathname = '/context_runtime_workers';
  return url.toString();
}

const url = workersUrl(process.env.TEST_DATABASE_URL);
const BIN = fileURLToPath(new URL('../../bin/context-runtime.mjs', import.meta.url));
let fixture: RuntimeFixture;
let model: CountingModelServer;
const workers = new Set<ChildProcess>();

function startWorker(): ChildProcess {
  // `node bin/…mjs` is one process (tsx registers as a loader), so SIGKILL reaches the worker itself.
  const worker = spawn(process.execPath, [BIN, 'worker', '--config', fixture.configPath, '--concurrency', '2'], {
    cwd: fixture.root,
    env: { ...process.env, DATABASE_URL: url },
    // Its stderr (rerank fallbacks against a model that returns no grades) would bury the test's output.
    stdio: ['ignore', 'ignore', 'ignore'],
  });
  workers.add(worker);
  worker.on('exit', () => workers.delete(worker));
  return worker;
}

async function stopWorkers(): Promise<void> {
  await Promise.all([...workers].map((worker) => new Promise<void>((done) => (worker.once('exit', () => done()), worker.kill('SIGTERM')))));
}

async function settled(runIds: readonly string[], timeoutMs: number): Promise<RunResult[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const runs = await Promise.all(runIds.map(async (runId) => (await fixture.runtime.getRun(runId)).run));
    if (runs.every((run) => run.status !== 'queued' && run.status !== 'running') || Date.now() > deadline) return runs;
    await sleep(200);
  }
}

async function submit(labels: readonly string[]): Promise<string[]> {
  const submitted = await Promise.all(labels.map((label) => fixture.runtime.submit({ goal: `${DEMO_QUESTION} [run:${label}]` })));
  for (const run of submitted) expect(run.status).toBe('queued');
  return submitted.map((run) => run.runId);
}

describe('worker command and engine configuration', () => {
  it.skipIf(process.env.DATABASE_URL)('refuses to start a worker without the graphile_worker engine and a server, naming the key', async () => {
    const root = mkdtempSync(join(tmpdir(), 'context-runtime-worker-config-'));
    const configPath = join(root, 'context-runtime.yaml');
    const errors: string[] = [];
    const write = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => (errors.push(String(chunk)), true));
    try {
      writeConfig(configPath, { database: { data_dir: join(root, 'pglite') } });
      expect(await main(['worker', '--config', configPath])).toBe(2);
      writeConfig(configPath, { database: { data_dir: join(root, 'pglite') }, execution: { engine: 'graphile_worker' } });
      expect(await main(['worker', '--config', configPath])).toBe(2);
    } finally {
      write.mockRestore();
    }
    expect(errors[0]).toMatch(/execution\.engine is in_process: set execution\.engine: graphile_worker and DATABASE_URL/);
    expect(errors[1]).toMatch(/no DATABASE_URL \(or database\.url\) is set/);
    // Nothing was opened: no embedded database was created on the way to the refusal.
    expect(existsSync(join(root, 'pglite'))).toBe(false);
  });

  it.skipIf(process.env.DATABASE_URL)('refuses the graphile_worker engine on the embedded database with a clear error', async () => {
    const root = mkdtempSync(join(tmpdir(), 'context-runtime-engine-config-'));
    await expect(openRuntimeFixture({ root, config: { execution: { engine: 'graphile_worker' } } })).rejects.toThrow(/execution\.engine graphile_worker runs jobs on a PostgreSQL server: set DATABASE_URL/);
    expect(existsSync(join(root, 'pglite'))).toBe(false);
  });
});

describe.skipIf(!url)('runs queued on graphile-worker, executed by worker processes', () => {
  beforeAll(async () => {
    const wipe = await openDatabase({ url });
    await wipe.exec('DROP SCHEMA IF EXISTS graphile_worker CASCADE; DROP SCHEMA IF EXISTS drizzle CASCADE; DROP SCHEMA IF EXISTS public CASCADE; CREATE SCHEMA public;');
    await wipe.close();
    model = await startCountingModelServer({ latencyMs: 300 });
    const root = mkdtempSync(join(tmpdir(), 'context-runtime-workers-'));
    const config = {
      database: { url },
      // run() with no worker alive gives up after 2 s (the test below); with workers it waits its turn.
      execution: { engine: 'graphile_worker', poll_ms: 50, pickup_timeout_ms: 2_000 },
      models: { tiers: [{ name: 'slow', provider: 'openai-compatible', base_url: model.baseURL, model: 'loop-1', quality_prior: 0.9 }, { name: 'local', provider: 'extractive' }] },
      // A dead worker's run is handed back within seconds, not the default 30 s. Not tighter: with
      // 1.5 s a live worker on a loaded machine (load average 25 on 2 cores) missed its beats, had its
      // run taken over as an orphan, and the run's calls were answered twice (seen in this test).
      scheduler: { backoff_ms: 0, heartbeat_ms: 500, orphan_after_ms: 5_000 },
      learning: { enabled: false },
      plan_cache: { enabled: false },
      // The counting server's replies are no judge verdicts; the gate's judge call and retry would
      // add calls this test counts, and verification is not its subject.
      verification: { default: false, judge: false },
      limits: { runs: { max_concurrent_per_user: 1000, max_daily_spend_usd_per_user: null } },
    };
    // Bootstrap rebuilds the demo repository under ./.data of the working directory: use the temp root.
    const previous = process.cwd();
    process.chdir(root);
    fixture = await openRuntimeFixture({ root, config }).finally(() => process.chdir(previous));
  }, 120_000);

  afterAll(async () => {
    await stopWorkers();
    await fixture?.close();
    await model?.close();
  }, 60_000);

  it('submits without executing: the run waits queued until a worker takes it', async () => {
    const [runId] = await submit(['queued-only']);
    await sleep(300);
    expect((await fixture.runtime.getRun(runId)).run.status).toBe('queued');
    expect(model.calls.get('queued-only')).toBeUndefined();
    await fixture.runtime.cancel(runId, { user: 'anonymous', roles: ['admin'] });
    expect((await fixture.runtime.getRun(runId)).run.status).toBe('cancelled');
  });

  it('run() with no worker running fails after execution.pickup_timeout_ms, saying a worker is missing', async () => {
    expect(workers.size).toBe(0);
    const started = Date.now();
    const result = await fixture.runtime.run({ goal: `${DEMO_QUESTION} [run:no-worker]` });
    expect(result.status).toBe('failed');
    expect(result.error).toMatch(/no context-runtime worker took run .* within \d+ ms \(execution\.pickup_timeout_ms\) and none is running: start one with `context-runtime worker`/);
    expect(Date.now() - started).toBeLessThan(20_000);
    expect((await fixture.runtime.getRun(result.runId)).run).toMatchObject({ status: 'failed', error: result.error });
    // A worker started later finds nothing to execute: the failed run is not taken up again.
    expect(model.calls.get('no-worker')).toBeUndefined();
  }, 60_000);

  it('two worker processes complete every submitted run, each model call answered once', async () => {
    const labels = Array.from({ length: 6 }, (_, index) => `pair-${index}`);
    const runIds = await submit(labels);
    startWorker();
    startWorker();
    const runs = await settled(runIds, 90_000);
    expect(runs.map((run) => [run.status, run.error])).toEqual(runs.map(() => ['completed', undefined]));
    for (const run of runs) expect(run.answer).toContain('checkout-api');
    // Both announced themselves alive: a caller waiting on a queued run waits its turn, and does not fail it.
    expect(await fixture.plugins.scheduler.liveWorkers!()).toBe(2);
    for (const label of labels) expect(model.calls.get(label)?.answered).toBeGreaterThan(0);
    for (const label of labels) expect(model.calls.get(label)?.answeredTwice).toBe(0);
  }, 120_000);

  it('run() waits for a worker and reports progress read from the database', async () => {
    const events: RunProgressEvent[] = [];
    const result = await fixture.runtime.run({ goal: `${DEMO_QUESTION} [run:awaited]` }, { onProgress: (event) => events.push(event) });
    expect(result.status).toBe('completed');
    expect(events[0]).toMatchObject({ type: 'run_started', runId: result.runId });
    // Every node the worker saved was reported finished once, in this process that executed none.
    const finished = events.filter((event) => event.type === 'node_finished').map((event) => (event as { nodeId: string }).nodeId);
    const saved = [...(await fixture.plugins.runStore.loadRun(result.runId))!.nodeOutcomes.keys()];
    expect(finished.sort()).toEqual(saved.sort());
    expect(model.calls.get('awaited')?.answeredTwice).toBe(0);
  }, 90_000);

  it('a worker killed with SIGKILL mid-run: another worker resumes its run, no node executes twice', async () => {
    expect(workers.size).toBe(2);
    model.hold();
    const labels = Array.from({ length: 4 }, (_, index) => `kill-${index}`);
    const runIds = await submit(labels);
    // Wait until a run is inside its model call, then kill the worker that owns it.
    let victim: { runId: string; pid: number } | undefined;
    const deadline = Date.now() + 60_000;
    while (!victim && Date.now() < deadline) {
      await sleep(100);
      for (const runId of runIds) {
        const record = await fixture.plugins.runStore.loadRun(runId);
        const label = labels[runIds.indexOf(runId)];
        if (record?.status === 'running' && record.owner && (model.calls.get(label)?.received ?? 0) > 0) victim = { runId, pid: Number(record.owner.split('-')[0]) };
      }
    }
    expect(victim).toBeDefined();
    const killed = [...workers].find((worker) => worker.pid === victim!.pid);
    expect(killed).toBeDefined();
    killed!.kill('SIGKILL');
    await new Promise((done) => killed!.once('exit', done));
    // Let the server see the dead worker's sockets close before the held answers go out.
    await sleep(300);
    model.release();
    const runs = await settled(runIds, 90_000);
    expect(runs.map((run) => [run.status, run.error])).toEqual(runs.map(() => ['completed', undefined]));
    const victimLabel = labels[runIds.indexOf(victim!.runId)];
    // The killed worker's call was abandoned, and the run still answered: another worker retried it.
    expect(model.calls.get(victimLabel)?.abandoned).toBeGreaterThanOrEqual(1);
    for (const label of labels) expect(model.calls.get(label)?.answeredTwice).toBe(0);
    // Every run made as many answered calls as an undisturbed run of the same goal did.
    const undisturbed = model.calls.get('pair-0')!.answered;
    for (const label of labels) expect(model.calls.get(label)?.answered).toBe(undisturbed);
    // The survivor took the run over: its last owner was not the killed worker.
    expect(workers.size).toBe(1);
  }, 150_000);
});
