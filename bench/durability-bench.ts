/**
 * `npm run bench:durability [-- --runs 20 --gated 5 --rounds 3 --delay-ms 300]`: kill -9 a process
 * executing runs on the embedded database, restart on the same data directory, and print how every
 * run ended (issue 13 acceptance, embedded half). A child process (`--child`) opens the runtime the
 * way the CLI does, pauses `--gated` high-risk runs at their approval gates, starts the runs against
 * a slow loopback model and, once they are all recorded, approves the gated ones (each resumes);
 * the parent kills it at a random moment in the first 3 model latencies after the approvals,
 * reopens the data directory, recovers orphans, and counts. Exit 1 when any run is still
 * `running`, ended without a reason, or waits at a gate whose approval was recorded (an approval
 * lost). Then the lock section
 * (durability-lock-section.ts; `--section lock` runs only it): exit 1 when one of its checks fails.
 * `--section ingest [--ingest-files 50000 --ingest-commits 2000]`: bench:ingest-load (the issue's
 * 50,000-file tree and 2,000-commit repository) with a sign-in or page every 200 ms during the
 * ingest; exit 1 when a signed-in page load took 1 s or more or the chunk text passed the byte cap.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { DEMO_QUESTION } from '../server/ingest/demo-corpus';
import { readDataDirLock } from '../server/services/data-dir-lock';
import { lockSection } from './durability-lock-section';
import { outageSection } from './durability-outage-section';
import { apiLoadSection } from './durability-api-load-section';
import { openRuntimeFixture, writeConfig } from '../server/testing/runtime-fixture';
import { startDurabilityModel } from './durability-model';

const { values } = parseArgs({
  options: {
    child: { type: 'string' },
    runs: { type: 'string', default: '20' },
    gated: { type: 'string', default: '5' },
    rounds: { type: 'string', default: '3' },
    'delay-ms': { type: 'string', default: '300' },
    section: { type: 'string' },
    'outage-runs': { type: 'string', default: '10' },
    'api-runs': { type: 'string', default: '50' },
    'outage-s': { type: 'string', default: '30' },
    'ingest-files': { type: 'string', default: '50000' },
    'ingest-commits': { type: 'string', default: '2000' },
  },
});
const runCount = Number(values.runs);
const gatedCount = Number(values.gated);
// High-risk goals pause at their approval gate; the child approves them before the kill.
const GATED_GOAL = 'Roll back the production deployment of checkout-api and delete the failed replica set';
const STARTER = { user: 'ana', roles: ['operator'] };
const APPROVER = { user: 'ben', roles: ['approver'] };

function configFor(root: string, baseURL: string): Record<string, unknown> {
  return {
    database: { data_dir: join(root, 'pglite') },
    models: { tiers: [{ name: 'slow', provider: 'openai-compatible', base_url: baseURL, model: 'loop-1', quality_prior: 0.9 }, { name: 'local', provider: 'extractive' }] },
    scheduler: { backoff_ms: 0 },
    learning: { enabled: false },
    limits: { runs: { max_concurrent_per_user: 1000, max_daily_spend_usd_per_user: null } },
  };
}

/**
 * The process that gets killed: pauses the gated runs at their gates, starts every run at once,
 * approves the gated ones, and waits (it never gets to finish).
 */
async function child(root: string): Promise<void> {
  const fixture = await openRuntimeFixture({ root });
  const gated = [];
  for (let index = 1; index <= gatedCount; index++) {
    const paused = await fixture.runtime.run({ goal: `${GATED_GOAL} (#${index})`, principal: STARTER });
    if (paused.status !== 'awaiting_approval') throw new Error(`the gated goal did not pause at a gate (status ${paused.status})`);
    gated.push(paused);
  }
  const started = Array.from({ length: runCount }, (_, index) => fixture.runtime.run({ goal: `${DEMO_QUESTION} (#${index + 1})` }));
  // Approved once every run is recorded and executing: each approval is recorded, and its run resumes among the others.
  while ((await fixture.runtime.listRuns({ limit: 1000 })).length < runCount + gated.length) await new Promise((resolve) => setTimeout(resolve, 10));
  const approving = gated.map((paused) => fixture.runtime.approve(paused.runId, paused.pendingApproval!.nodeId, 'approved', APPROVER, 'approved while runs were in flight'));
  while ((await fixture.plugins.runStore.listDecisions!({ limit: 1000 })).length < gated.length) await new Promise((resolve) => setTimeout(resolve, 10));
  process.stdout.write('ready\n');
  await Promise.allSettled([...started, ...approving]);
  process.stdout.write('finished\n');
  await fixture.close({ remove: false });
}

async function untilLockStale(dataDir: string): Promise<number> {
  const started = Date.now();
  while (readDataDirLock(dataDir)?.alive) await new Promise((resolve) => setTimeout(resolve, 250));
  return Date.now() - started;
}

interface RoundTally {
  completed: number;
  unverified: number;
  failed: number;
  cancelled: number;
  running: number;
  other: number;
  withoutReason: number;
  /** Paused at a gate whose approval was recorded: an approval lost. */
  waitingAtDecidedGate: number;
  /** Paused at a gate nobody had decided yet when the process died: waiting, as it should. */
  waitingUndecided: number;
  approvals: number;
}

async function round(number: number, delayMs: number): Promise<RoundTally> {
  const root = mkdtempSync(join(tmpdir(), 'durability-bench-'));
  const model = await startDurabilityModel(delayMs);
  try {
    writeConfig(join(root, 'context-runtime.yaml'), configFor(root, model.baseURL));
    // One node process (tsx as a loader, not a wrapper process), so SIGKILL reaches the process that holds the database.
    const executing = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--child', root, '--runs', String(runCount), '--gated', String(gatedCount)], { stdio: ['ignore', 'pipe', 'inherit'] });
    let output = '';
    executing.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<void>((resolve) => executing.on('exit', () => resolve()));
    const deadline = Date.now() + 300_000;
    // Timed from "ready" (every run recorded and executing, the approvals recorded).
    while (!output.includes('ready') && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    const killAfterMs = Math.round(Math.random() * delayMs * 3);
    await new Promise((resolve) => setTimeout(resolve, killAfterMs));
    const requestsAtKill = model.requests.length;
    executing.kill('SIGKILL');
    await exited;
    // The killed process's lock is judged by age, never by its PID: a restart waits until it is stale.
    const lockWaitMs = await untilLockStale(join(root, 'pglite'));

    model.reply({ delayMs: 0 });
    const started = Date.now();
    const fixture = await openRuntimeFixture({ root });
    const leftRunning = await fixture.runtime.listRuns({ limit: 1000, status: 'running' });
    const runningBefore = leftRunning.length;
    const approvedInFlight = leftRunning.filter((run) => run.goal.startsWith(GATED_GOAL)).length;
    const recovered = await fixture.runtime.recoverRuns();
    const recoveryMs = Date.now() - started;
    const runs = await fixture.runtime.listRuns({ limit: 1000 });
    const tally: RoundTally = { completed: 0, unverified: 0, failed: 0, cancelled: 0, running: 0, other: 0, withoutReason: 0, waitingAtDecidedGate: 0, waitingUndecided: 0, approvals: 0 };
    tally.approvals = (await fixture.plugins.runStore.listDecisions!({ limit: 1000 })).length;
    for (const summary of runs) {
      const { run } = await fixture.runtime.getRun(summary.id);
      // `unverified` ended too: answered, its check failed on every attempt (the reasons are in its verification).
      if (run.status === 'completed' || run.status === 'unverified' || run.status === 'failed' || run.status === 'cancelled' || run.status === 'running') tally[run.status] += 1;
      else if (run.status === 'awaiting_approval') {
        const decided = (await fixture.plugins.runStore.loadRun(run.runId))!.decisions.size > 0;
        tally[decided ? 'waitingAtDecidedGate' : 'waitingUndecided'] += 1;
      } else tally.other += 1;
      if ((run.status === 'failed' || run.status === 'cancelled') && !run.error) tally.withoutReason += 1;
    }
    await fixture.close();
    console.log(
      `round ${number}: killed ${killAfterMs} ms after the approvals (${requestsAtKill} model calls made); its lock went stale after ${lockWaitMs} ms; runs recorded ${runs.length}, left running ${runningBefore}, recovered ${recovered.length} in ${recoveryMs} ms (open included) → completed ${tally.completed}, unverified ${tally.unverified}, failed ${tally.failed}, cancelled ${tally.cancelled}, still running ${tally.running}, other ${tally.other}, without a reason ${tally.withoutReason}`,
    );
    console.log(`  gates: ${gatedCount} paused, ${tally.approvals} approvals recorded before the kill, ${approvedInFlight} of their runs still running at the kill; waiting at an approved gate ${tally.waitingAtDecidedGate}, waiting undecided ${tally.waitingUndecided}`);
    for (const failed of recovered.filter((entry) => entry.status !== 'completed')) console.log(`  ${failed.runId}: ${failed.status} — ${failed.error ?? ''}`);
    return tally;
  } finally {
    await model.close();
    rmSync(root, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  if (values.child) return child(values.child);
  if (values.section === 'lock') {
    process.exitCode = (await lockSection()) ? 0 : 1;
    return;
  }
  if (values.section === 'api-load') {
    process.exitCode = (await apiLoadSection({ runs: Number(values['api-runs']) })) ? 0 : 1;
    return;
  }
  if (values.section === 'ingest') {
    // Issue 13's acceptance: "ingest of a 50,000-file tree and of a 2,000-commit repository completes
    // within the byte caps while a signed-in user's page loads stay under 1 s". The measurement is
    // bench:ingest-load's, run here with those figures, ingested in this runtime's process while a
    // signed-in user signs in or loads a page every 200 ms.
    const args = ['--files', values['ingest-files'], '--commits', values['ingest-commits'], '--max-commits', values['ingest-commits'], '--probe-ms', '200', '--trace'];
    const ingestLoad = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('./ingest-load-bench.ts', import.meta.url)), ...args], { stdio: 'inherit' });
    process.exitCode = await new Promise<number>((resolve) => ingestLoad.on('exit', (code) => resolve(code ?? 1)));
    return;
  }
  if (values.section === 'pg-outage') {
    process.exitCode = (await outageSection({ runs: Number(values['outage-runs']), outageS: Number(values['outage-s']) })) ? 0 : 1;
    // The runtime's timers (heartbeat, sweeps) are unref'd, but the driver's pool may linger.
    process.exit();
  }
  const rounds = Number(values.rounds);
  const delayMs = Number(values['delay-ms']);
  console.log(`durability bench: ${rounds} round(s) of ${runCount} runs on embedded PGlite, model latency ${delayMs} ms, kill -9 at a random moment, then restart and recover`);
  let stuck = 0;
  let unexplained = 0;
  for (let number = 1; number <= rounds; number++) {
    const tally = await round(number, delayMs);
    stuck += tally.running + tally.other + tally.waitingAtDecidedGate;
    unexplained += tally.withoutReason;
  }
  console.log(stuck === 0 && unexplained === 0 ? 'every run ended completed, or failed/cancelled with a reason; no approved gate was left waiting' : `FAILED: ${stuck} run(s) not ended (or waiting at an approved gate), ${unexplained} without a reason`);
  const locked = await lockSection();
  process.exitCode = stuck === 0 && unexplained === 0 && locked ? 0 : 1;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(2);
});
