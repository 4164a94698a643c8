/**
 * `npm run bench:workers [-- --runs 40 --workers 1,2,4 --kill-workers 3 --kill-every-s 10]`: runs
 * queued on graphile-worker and executed by `context-runtime worker` child processes (issue 13,
 * acceptance, PostgreSQL half). A loopback OpenAI-compatible server answers after --latency-ms with
 * --error-rate injected 503s and counts, per run, calls answered twice for the same request.
 * Prints the job pickup delay of an idle queue, then, per worker count, runs/min and p50/p99 run latency (created → finished, queue wait
 * included); then a round where a random worker is killed with SIGKILL every --kill-every-s (and
 * restarted): completed / failed with reason / lost / nodes executed twice (a node whose outcome was
 * recorded, executed again: two finished spans) / model calls made again (answered twice for the
 * same request: the calls of a node a killed or stalled worker left unfinished, which a retry redoes).
 * Needs BENCH_DATABASE_URL, or TEST_DATABASE_URL whose server has `context_runtime_workers`
 * (wiped). Exit 1 when a run is lost, a node executes twice, or a run failed without a reason.
 *
 * Measured 2026-12-02, session 28 (PostgreSQL 15, load average 0.2 at start, 6-7 during): `--runs 40
 * --kill-runs 200 --workers 1,2,4 --kill-workers 3 --timeout-s 0`:
 *   job pickup p50 1.1 ms, p99 3.0 ms (pg-boss 10, probed separately the same day: p50 1,159 ms at
 *   its default 2 s polling, 214 ms at 0.5 s)
 *   workers  runs/min  p50 s   p99 s   completed  unverified  failed  lost  nodes-twice  calls-again
 *         1      71.1   16.81   32.48         40           0       0     0            0            0
 *         2     121.4   10.74   19.32         40           0       0     0            0            0
 *         4     149.4   10.38   15.77         40           0       0     0            0            0
 *   kill -9 a random worker every 10 s (restarted), 3 workers, 200 runs: 10 kills in 118.7 s;
 *     completed 200, failed 0, lost 0, nodes executed twice 0, model calls made again 40; 101.1
 *     runs/min, p50 50.18 s, p99 97.83 s; worker start p50 4.7 s, max 6.3 s
 * Measured 2026-12-02, session 24 (PostgreSQL 15, 2 cores shared with other jobs; workers from the
 * bundled CLI): `--workers '' --kill-workers 3 --kill-runs 200 --timeout-s 0` at load average 22-37:
 *   kill -9 a random worker every 10 s (restarted), 3 workers, 200 runs: 67 kills in 1325.6 s
 *     completed 200, unverified 0, failed 0 (0 without a reason), not ended at the cap 0 (0 of them
 *     with no job waiting: lost), nodes executed twice 0, model calls made again 34; runs/min 9.1,
 *     p50 812.93 s, p99 1275.08 s
 *     runs a killed worker held: 50, handed back to the queue after p50 15.9 s, max 34.7 s
 *     worker start (spawn → taking jobs), 40 starts: p50 37.5 s, max 66.8 s
 * `--runs 40 --workers 1,2,4 --kill-workers 0 --timeout-s 0` at load average 20-27:
 *   job pickup p50 7.8 ms, p99 28.9 ms
 *   workers  runs/min  p50 s   p99 s   completed  unverified  failed  lost  nodes-twice  calls-again
 *         1      25.3   48.42   89.50         40           0       0     0            0            0
 *         2      27.5   46.91   86.45         40           0       0     0            0            0
 *         4      38.6   38.93   61.17         40           0       0     0            0            0
 * Before this session's changes, `--runs 10 --workers 1 --kill-workers 0` (load 6-12): 14.6 runs/min,
 * 10 of 10 ended `unverified` (the loopback's answer was the judge's reply too: no verdict, so the
 * gate's retry attempt ran) with 82 calls answered twice, 9 wave jobs a run (4 only skipping); with
 * the judge answered, the same round at load 18: 47.8 runs/min, p50 11.90 s. Session 21, `--runs 60
 * … --kill-runs 200 --timeout-s 1800` at load 18-31: 1/2/4 workers 13.4 / 21.2 / 31.3 runs/min; kill
 * round 124 of 200 ended within the 30-minute cap, 6.7 runs/min.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import { build } from 'esbuild';
import { openDatabase } from '../db/client';
import { DEMO_QUESTION } from '../server/ingest/demo-corpus';
import { startCountingModelServer, type CountingModelServer } from '../server/testing/loopback-counting-model-server';
import { openRuntimeFixture, type RuntimeFixture } from '../server/testing/runtime-fixture';
import { measureJobPickup } from './job-pickup-probe';
import { measurePgBossPickup } from './pg-boss-pickup-probe';
import { describePhases, phaseTimings } from './worker-phase-timings';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '40' },
    /** Runs of the kill round (default: --runs); the acceptance's 200 without 200 in every throughput round. */
    'kill-runs': { type: 'string' },
    workers: { type: 'string', default: '1,2,4' },
    concurrency: { type: 'string', default: '2' },
    'kill-workers': { type: 'string', default: '3' },
    'kill-every-s': { type: 'string', default: '10' },
    'latency-ms': { type: 'string', default: '200' },
    'error-rate': { type: 'string', default: '0.05' },
    /** 0: no cap, the round ends when every run has ended. */
    'timeout-s': { type: 'string', default: '600' },
    /** `bundle`: workers run the CLI bundled as the installed package ships it (no tsx); `source`: bin/context-runtime.mjs through tsx. */
    'worker-from': { type: 'string', default: 'bundle' },
    'heartbeat-ms': { type: 'string', default: '5000' },
    'orphan-after-ms': { type: 'string', default: '30000' },
  },
});
const runCount = Number(values.runs);
const concurrency = Number(values.concurrency);
const timeoutMs = Number(values['timeout-s']) > 0 ? Number(values['timeout-s']) * 1000 : Number.POSITIVE_INFINITY;
const BIN = fileURLToPath(new URL('../bin/context-runtime.mjs', import.meta.url));
const ROOT = fileURLToPath(new URL('..', import.meta.url));

/**
 * The CLI as one ESM file, its dependencies external (as build:package bundles it), under
 * bench/results so they resolve from the checkout's node_modules. A worker started from the sources
 * compiles them through tsx first: 14.1 s to take jobs at load average 15, against 9.8 s bundled.
 */
async function bundledCli(): Promise<string> {
  const directory = join(ROOT, 'bench', 'results', 'worker-bundle');
  mkdirSync(directory, { recursive: true });
  const outfile = join(directory, 'context-runtime-cli.mjs');
  await build({
    absWorkingDir: ROOT,
    stdin: { contents: "import { main } from './server/cli/main';\nconst code = await main(process.argv.slice(2));\nprocess.stdout.write('', () => process.exit(code));\n", resolveDir: ROOT, loader: 'ts' },
    outfile,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    logLevel: 'warning',
  });
  return outfile;
}

function benchUrl(): string | undefined {
  if (process.env.BENCH_DATABASE_URL) return process.env.BENCH_DATABASE_URL;
  if (!process.env.TEST_DATABASE_URL) return undefined;
  const url = new URL(process.env.TEST_DATABASE_URL);
  url.pathname = '/context_runtime_workers';
  return url.toString();
}

const percentile = (sorted: readonly number[], share: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil(share * sorted.length) - 1)] : NaN);

class Workers {
  readonly live = new Set<ChildProcess>();
  /** Milliseconds from spawn to "executing queued runs", per worker started. */
  readonly bootMs: number[] = [];
  constructor(
    private readonly fixture: RuntimeFixture,
    private readonly url: string,
    private readonly cli: string,
  ) {}

  /** Resolves once the worker says it takes jobs. */
  start(): Promise<ChildProcess> {
    const spawned = performance.now();
    const worker = spawn(process.execPath, [this.cli, 'worker', '--config', this.fixture.configPath, '--concurrency', String(concurrency)], {
      cwd: this.fixture.root,
      env: { ...process.env, DATABASE_URL: this.url },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    this.live.add(worker);
    worker.on('exit', () => this.live.delete(worker));
    return new Promise((resolve, reject) => {
      let said = '';
      let ready = false;
      worker.stderr!.on('data', (chunk: Buffer) => {
        said += chunk.toString();
        if (!ready && said.includes('executing queued runs')) {
          ready = true;
          this.bootMs.push(performance.now() - spawned);
          resolve(worker);
        }
      });
      worker.once('exit', (code) => reject(new Error(`worker exited (${code}) before taking jobs: ${said.slice(-400)}`)));
    });
  }

  async stopAll(): Promise<void> {
    await Promise.all([...this.live].map((worker) => new Promise<void>((done) => (worker.once('exit', () => done()), worker.kill('SIGTERM')))));
  }
}

interface Tally {
  readonly completed: number;
  /** Answered, with verification failed on every attempt: ended, with the reasons stored. */
  readonly unverified: number;
  readonly failed: number;
  readonly failedWithoutReason: number;
  readonly reasons: ReadonlyMap<string, number>;
  /** Runs not ended when the round's --timeout-s ran out (queued or running). */
  readonly lost: number;
  /** Of those, runs with no job waiting in the engine: nothing would ever execute them (truly lost). */
  readonly withoutJob: number;
  readonly nodesTwice: number;
  readonly callsAgain: number;
  readonly latencies: readonly number[];
  readonly elapsedMs: number;
  readonly phases: string;
}

async function submitAndWait(fixture: RuntimeFixture, model: CountingModelServer, prefix: string, during?: () => Promise<void>, count = runCount): Promise<Tally> {
  const started = Date.now();
  const labels = Array.from({ length: count }, (_, index) => `${prefix}-${index}`);
  const runIds = (await Promise.all(labels.map((label) => fixture.runtime.submit({ goal: `${DEMO_QUESTION} [run:${label}]` })))).map((run) => run.runId);
  const deadline = started + timeoutMs;
  let runs = await Promise.all(runIds.map((runId) => fixture.plugins.runStore.loadRun(runId)));
  let disturbing = Promise.resolve();
  if (during) disturbing = during();
  while (runs.some((run) => run?.status === 'queued' || run?.status === 'running') && Date.now() < deadline) {
    await sleep(250);
    runs = await Promise.all(runIds.map((runId) => fixture.plugins.runStore.loadRun(runId)));
  }
  const elapsedMs = Math.max(...runs.map((run) => Date.parse(run!.updatedAt))) - started;
  stopDisturbing = true;
  await disturbing;
  const reasons = new Map<string, number>();
  let failedWithoutReason = 0;
  for (const run of runs) {
    if (run?.status !== 'failed') continue;
    if (!run.error) failedWithoutReason += 1;
    const reason = (run.error ?? '(none)').replace(/[0-9a-f-]{36}/g, '…').slice(0, 120);
    reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
  }
  return {
    completed: runs.filter((run) => run?.status === 'completed').length,
    unverified: runs.filter((run) => run?.status === 'unverified').length,
    failed: runs.filter((run) => run?.status === 'failed').length,
    failedWithoutReason,
    reasons,
    lost: runs.filter((run) => !run || run.status === 'queued' || run.status === 'running').length,
    withoutJob: await unfinishedWithoutJob(fixture, runIds.filter((_, index) => runs[index]?.status === 'queued' || runs[index]?.status === 'running')),
    nodesTwice: await nodesFinishedTwice(fixture, runIds),
    callsAgain: labels.reduce((sum, label) => sum + (model.calls.get(label)?.answeredTwice ?? 0), 0),
    latencies: runs.filter((run) => run?.status === 'completed' || run?.status === 'unverified').map((run) => (Date.parse(run!.updatedAt) - Date.parse(run!.createdAt)) / 1000).sort((a, b) => a - b),
    elapsedMs,
    phases: describePhases(await phaseTimings(fixture.database, runIds)),
  };
}

let stopDisturbing = false;

/** Unfinished runs whose job is not in graphile-worker's queue (the job key is `run:<id>`). */
async function unfinishedWithoutJob(fixture: RuntimeFixture, runIds: readonly string[]): Promise<number> {
  if (runIds.length === 0) return 0;
  const rows = await fixture.database.query<{ key: string }>(sql`select key from graphile_worker.jobs where key = any(${`{${runIds.map((id) => `run:${id}`).join(',')}}`}::text[])`);
  return runIds.length - new Set(rows.map((row) => row.key)).size;
}

/** Nodes with two finished spans in one run: a node executed again after its outcome was recorded. */
async function nodesFinishedTwice(fixture: RuntimeFixture, runIds: readonly string[]): Promise<number> {
  let twice = 0;
  for (const runId of runIds) {
    const names = (await fixture.plugins.traceSink.spansOf(runId)).map((span) => span.name).filter((name) => name.startsWith('node.') && !/\.attempt\d+$/.test(name));
    twice += names.length - new Set(names).size;
  }
  return twice;
}

async function main(): Promise<void> {
  const url = benchUrl();
  if (!url) {
    console.error('bench:workers needs a PostgreSQL server: set BENCH_DATABASE_URL, or TEST_DATABASE_URL with a context_runtime_workers database beside it');
    process.exit(2);
  }
  const wipe = await openDatabase({ url });
  await wipe.exec('DROP SCHEMA IF EXISTS graphile_worker CASCADE; DROP SCHEMA IF EXISTS drizzle CASCADE; DROP SCHEMA IF EXISTS public CASCADE; CREATE SCHEMA public;');
  await wipe.close();
  const latencyMs = Number(values['latency-ms']);
  const errorRate = Number(values['error-rate']);
  const model = await startCountingModelServer({ latencyMs, errorRate });
  const root = mkdtempSync(join(tmpdir(), 'worker-scale-bench-'));
  const config = {
    database: { url },
    execution: { engine: 'graphile_worker', poll_ms: 100 },
    models: { tiers: [{ name: 'remote', provider: 'openai-compatible', base_url: model.baseURL, model: 'loop-1', quality_prior: 0.9 }, { name: 'local', provider: 'extractive' }] },
    // The defaults (5 s / 30 s). With 1 s / 5 s, a live worker whose event loop was starved during a
    // retrieval wave on this loaded machine missed its beats, lost its run to another worker's sweep,
    // and the wave's model calls were made again: 16 calls answered twice with 4 workers and no kill.
    scheduler: { heartbeat_ms: Number(values['heartbeat-ms']), orphan_after_ms: Number(values['orphan-after-ms']) },
    learning: { enabled: false },
    limits: { runs: { max_concurrent_per_user: 1000, max_daily_spend_usd_per_user: null } },
  };
  const previous = process.cwd();
  process.chdir(root);
  const fixture = await openRuntimeFixture({ root, config }).finally(() => process.chdir(previous));
  const workers = new Workers(fixture, url, values['worker-from'] === 'source' ? BIN : await bundledCli());
  let failedBench = false;
  console.log(`load average at start: ${loadavg().map((load) => load.toFixed(1)).join(' ')} (${cpus().length} cores)`);
  console.log(`worker-scale bench: ${runCount} runs per round, model ${latencyMs} ms latency, ${Math.round(errorRate * 100)} % injected 503, --concurrency ${concurrency} per worker, heartbeat ${values['heartbeat-ms']} ms, orphan after ${values['orphan-after-ms']} ms`);
  const pickup = await measureJobPickup(url);
  console.log(`job pickup on an idle graphile-worker queue (added → started, ${pickup.length} jobs): p50 ${percentile(pickup, 0.5).toFixed(1)} ms, p99 ${percentile(pickup, 0.99).toFixed(1)} ms`);
  // The engine not chosen, measured the same way in the same run (README: why graphile-worker).
  for (const pollingIntervalSeconds of [2, 0.5]) {
    const polled = await measurePgBossPickup(url, pollingIntervalSeconds);
    console.log(`job pickup on an idle pg-boss 10 queue (sent → started, ${polled.length} jobs, pollingIntervalSeconds ${pollingIntervalSeconds}): p50 ${percentile(polled, 0.5).toFixed(1)} ms, p99 ${percentile(polled, 0.99).toFixed(1)} ms`);
  }
  console.log(`workers run ${values['worker-from'] === 'source' ? 'bin/context-runtime.mjs (tsx)' : 'the CLI bundled (no tsx, as installed)'}`);
  console.log('workers  runs/min  p50 s   p99 s   completed  unverified  failed  lost  nodes-twice  calls-again');
  try {
    for (const count of String(values.workers).split(',').map(Number).filter((count) => count > 0)) {
      await Promise.all(Array.from({ length: count }, () => workers.start()));
      stopDisturbing = false;
      const tally = await submitAndWait(fixture, model, `w${count}`);
      await workers.stopAll();
      failedBench ||= tally.lost > 0 || tally.nodesTwice > 0 || tally.failedWithoutReason > 0;
      const perMinute = (runCount / tally.elapsedMs) * 60_000;
      console.log(`${String(count).padStart(7)}  ${perMinute.toFixed(1).padStart(8)}  ${percentile(tally.latencies, 0.5).toFixed(2).padStart(6)}  ${percentile(tally.latencies, 0.99).toFixed(2).padStart(6)}  ${String(tally.completed).padStart(9)}  ${String(tally.unverified).padStart(10)}  ${String(tally.failed).padStart(6)}  ${String(tally.lost).padStart(4)}  ${String(tally.nodesTwice).padStart(11)}  ${String(tally.callsAgain).padStart(11)}`);
      for (const [reason, times] of tally.reasons) console.log(`         failed ×${times}: ${reason}`);
      console.log(`         ${tally.phases}`);
    }
    const killCount = Number(values['kill-workers']);
    if (killCount > 0) await killRound(fixture, model, workers, killCount, (failed) => (failedBench ||= failed));
    const repeats = model.repeats.filter((repeat) => repeat.label !== '');
    for (const repeat of repeats.slice(0, 5)) console.log(`  answered twice: run ${repeat.label}, ${repeat.againAt - repeat.firstAt} ms apart: ${JSON.stringify(repeat.asked.slice(0, 80))}`);
    console.log(`worker start (spawn → taking jobs), ${workers.bootMs.length} starts: p50 ${(percentile([...workers.bootMs].sort((a, b) => a - b), 0.5) / 1000).toFixed(1)} s, max ${(Math.max(...workers.bootMs) / 1000).toFixed(1)} s`);
    console.log(`load average at end: ${loadavg().map((load) => load.toFixed(1)).join(' ')}`);
  } finally {
    await workers.stopAll();
    await fixture.close();
    await model.close();
  }
  process.exit(failedBench ? 1 : 0);
}

async function killRound(fixture: RuntimeFixture, model: CountingModelServer, workers: Workers, killCount: number, report: (failed: boolean) => void): Promise<void> {
  const everyMs = Number(values['kill-every-s']) * 1000;
  const killRuns = Number(values['kill-runs'] ?? runCount);
  await Promise.all(Array.from({ length: killCount }, () => workers.start()));
  let kills = 0;
  const handoffs: Promise<readonly number[]>[] = [];
  stopDisturbing = false;
  const tally = await submitAndWait(fixture, model, 'kill', async () => {
    while (!stopDisturbing) {
      for (let waited = 0; waited < everyMs && !stopDisturbing; waited += 100) await sleep(100);
      if (stopDisturbing) break;
      const live = [...workers.live];
      const victim = live[Math.floor(Math.random() * live.length)];
      if (!victim) continue;
      victim.kill('SIGKILL');
      kills += 1;
      handoffs.push(handedBackAfter(fixture, victim.pid!));
      // Restarted at once but not awaited: a worker takes ~10-30 s to start here, and the kills keep their pace.
      void workers.start().catch(() => undefined);
    }
  }, killRuns);
  await workers.stopAll();
  report(tally.lost > 0 || tally.nodesTwice > 0 || tally.failedWithoutReason > 0);
  console.log(`\nkill -9 a random worker every ${values['kill-every-s']} s (restarted), ${killCount} workers, ${killRuns} runs: ${kills} kills in ${(tally.elapsedMs / 1000).toFixed(1)} s`);
  console.log(`  completed ${tally.completed}, unverified ${tally.unverified}, failed ${tally.failed} (${tally.failedWithoutReason} without a reason), not ended at the cap ${tally.lost} (${tally.withoutJob} of them with no job waiting: lost), nodes executed twice ${tally.nodesTwice}, model calls made again ${tally.callsAgain}; runs/min ${((killRuns / tally.elapsedMs) * 60_000).toFixed(1)}, p50 ${percentile(tally.latencies, 0.5).toFixed(2)} s, p99 ${percentile(tally.latencies, 0.99).toFixed(2)} s`);
  for (const [reason, times] of tally.reasons) console.log(`  failed ×${times}: ${reason}`);
  const handedBack = (await Promise.all(handoffs)).flat().sort((a, b) => a - b);
  console.log(`  ${tally.phases}`);
  console.log(`  runs a killed worker held: ${handedBack.length}, handed back to the queue after p50 ${(percentile(handedBack, 0.5) / 1000).toFixed(1)} s, max ${(Math.max(...handedBack) / 1000).toFixed(1)} s`);
}

/** Milliseconds after the kill until each run the dead worker held `running` had another owner or had left `running`. */
async function handedBackAfter(fixture: RuntimeFixture, pid: number): Promise<readonly number[]> {
  const killedAt = performance.now();
  const held = async () => (await fixture.database.query<{ id: string }>(sql`select id from runs where status = 'running' and owner like ${`${pid}-%`}`)).map((row) => row.id);
  const pending = new Set(await held());
  const delays: number[] = [];
  while (pending.size > 0 && performance.now() - killedAt < 600_000) {
    await sleep(250);
    const still = new Set(await held());
    for (const runId of [...pending]) {
      if (still.has(runId)) continue;
      pending.delete(runId);
      delays.push(performance.now() - killedAt);
    }
  }
  return delays;
}

await main();
