/**
 * The lock half of `npm run bench:durability` (issue 13 acceptance, point 4), against real
 * `next start` servers from the current build: two servers started at once on one data directory
 * (which won, what the loser answers, whether the CLI's token survived, whether the CLI works
 * against the winner); kill -9 of the winner (how long until the loser takes over, with nothing
 * deleted by hand); and servers started over a stale lock that names their own PID and one that
 * names a live, unrelated PID. Needs a build (`npm run build`); says so and skips without one.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { serviceTokenPathOf } from '../server/auth/local-secrets';
import { DEMO_QUESTION } from '../server/ingest/demo-corpus';
import { lockPathOf, ownerPathOf, readDataDirLock } from '../server/services/data-dir-lock';
import { STALE_AFTER_MS } from '../server/services/directory-lock';

const projectRoot = resolve(import.meta.dirname, '..');
const nextBin = join(projectRoot, 'node_modules', 'next', 'dist', 'bin', 'next');
const cliBin = join(projectRoot, 'bin', 'context-runtime.mjs');
const BASE_PORT = Number(process.env.BENCH_LOCK_PORT ?? 3470);

/** This process's environment without the variables that would override the config file's data directory. */
function environment(extra: Record<string, string>): NodeJS.ProcessEnv {
  const { CONTEXT_RUNTIME_DATA_DIR: _dataDir, DATABASE_URL: _url, ...rest } = process.env;
  return { ...rest, ...extra };
}

interface Server {
  readonly port: number;
  readonly process: ChildProcess;
  log: string;
}

function startServer(configPath: string, port: number): Server {
  const child = spawn(process.execPath, [nextBin, 'start', '-p', String(port)], {
    cwd: projectRoot,
    env: environment({ PORT: String(port), CONTEXT_RUNTIME_CONFIG: configPath, CONTEXT_RUNTIME_ADMIN_EMAIL: 'bench@example.com', CONTEXT_RUNTIME_ADMIN_PASSWORD: 'bench-password-123' }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const server: Server = { port, process: child, log: '' };
  child.stdout!.on('data', (chunk: Buffer) => (server.log += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (server.log += chunk.toString()));
  return server;
}

/** The HTTP status of an API call and of a page, or 0 while nothing listens. */
async function statuses(port: number): Promise<{ api: number; page: number }> {
  const status = (path: string) =>
    fetch(`http://127.0.0.1:${port}${path}`, { redirect: 'manual', signal: AbortSignal.timeout(10_000) }).then(
      (response) => response.status,
      () => 0,
    );
  return { api: await status('/api/trpc/runtime.listRuns'), page: await status('/signin') };
}

/** Waits until `ready` holds for the server's answers; returns how long that took. */
async function until(port: number, ready: (answer: { api: number; page: number }) => boolean, timeoutMs: number): Promise<{ ms: number; answer: { api: number; page: number } }> {
  const started = Date.now();
  for (;;) {
    const answer = await statuses(port);
    if (ready(answer) || Date.now() - started > timeoutMs) return { ms: Date.now() - started, answer };
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

async function stop(server: Server): Promise<void> {
  if (server.process.exitCode !== null || server.process.signalCode !== null) return;
  const exited = new Promise((resolve) => server.process.once('exit', resolve));
  server.process.kill('SIGKILL');
  await exited;
}

async function cli(configPath: string, args: readonly string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [cliBin, ...args], {
      cwd: projectRoot,
      env: environment({ CONTEXT_RUNTIME_CONFIG: configPath }),
      timeout: 180_000,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof failed.code === 'number' ? failed.code : 1, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  }
}

/** A CLI run against whichever server owns the directory: exit code, run id and status. */
async function cliRun(configPath: string): Promise<string> {
  const result = await cli(configPath, ['run', '--json', DEMO_QUESTION]);
  if (result.code !== 0) return `exit ${result.code}: ${result.stderr.trim().split('\n').at(-1)}`;
  const run = JSON.parse(result.stdout) as { runId: string; status: string };
  return `exit 0, run ${run.runId} ${run.status}`;
}

const serving = (answer: { api: number; page: number }) => answer.api !== 0 && answer.api !== 503 && answer.page !== 0 && answer.page !== 503;

/** Plants the lock a holder that died `ageMs` ago left, its record naming `pid`. */
function plantStaleLock(dataDir: string, pid: number, ageMs: number): void {
  mkdirSync(lockPathOf(dataDir), { recursive: true });
  writeFileSync(ownerPathOf(dataDir), JSON.stringify({ pid, port: 1, startedAt: new Date(Date.now() - ageMs).toISOString(), database: 'embedded' }));
  const then = new Date(Date.now() - ageMs);
  utimesSync(lockPathOf(dataDir), then, then);
}

/** Returns whether every check held. */
export async function lockSection(): Promise<boolean> {
  if (!existsSync(join(projectRoot, '.next', 'BUILD_ID'))) {
    console.log('lock section skipped: it starts `next start` servers and needs a build (npm run build)');
    return true;
  }
  const root = mkdtempSync(join(tmpdir(), 'durability-lock-'));
  const dataDir = join(root, 'pglite');
  const configPath = join(root, 'context-runtime.yaml');
  writeFileSync(configPath, `database:\n  data_dir: ${dataDir}\nmodels:\n  tiers:\n    - name: local\n      provider: extractive\nlearning:\n  enabled: false\n`);
  const servers: Server[] = [];
  let ok = true;
  const check = (holds: boolean, line: string) => {
    ok &&= holds;
    console.log(`${holds ? '  ok ' : '  FAIL'} ${line}`);
  };
  try {
    console.log(`lock section: two \`next start\` servers at once on one data directory (ports ${BASE_PORT}, ${BASE_PORT + 1})`);
    servers.push(startServer(configPath, BASE_PORT), startServer(configPath, BASE_PORT + 1));
    const answers = await Promise.all(servers.map((server) => until(server.port, (answer) => answer.api !== 0 && answer.page !== 0, 180_000)));
    // The refused one answers at once; give the winner the time its first open takes.
    const settled = await Promise.all(servers.map((server, index) => (answers[index]!.answer.api === 503 ? answers[index]! : until(server.port, serving, 180_000))));
    const owner = readDataDirLock(dataDir);
    const winners = servers.filter((_, index) => serving(settled[index]!.answer));
    const losers = servers.filter((_, index) => settled[index]!.answer.api === 503 && settled[index]!.answer.page === 503);
    for (const [index, server] of servers.entries()) console.log(`  port ${server.port}: API ${settled[index]!.answer.api}, page ${settled[index]!.answer.page} (${settled[index]!.ms} ms)`);
    check(winners.length === 1 && losers.length === 1, `exactly one won: ${winners.map((server) => server.port).join(', ') || 'none'}; refused with 503 on API and page: ${losers.map((server) => server.port).join(', ') || 'none'}`);
    const [winner, loser] = [winners[0], losers[0]];
    if (!winner || !loser) {
      for (const server of servers) console.log(`  log of port ${server.port}:\n${server.log.replace(/^/gm, '    ')}`);
      return false;
    }
    check(owner?.port === winner.port && owner.pid === winner.process.pid, `the lock names the winner: pid ${owner?.pid}, port ${owner?.port}`);
    const token = readFileSync(serviceTokenPathOf(dataDir), 'utf8');
    check(/not serving \(503 on every route\)/.test(loser.log), `the loser logged: ${/\[context-runtime\] not serving[^\n]*/.exec(loser.log)?.[0].slice(0, 160) ?? '(nothing)'}…`);
    check(await cliRun(configPath).then((outcome) => (console.log(`  CLI against the winner: ${outcome}`), outcome.startsWith('exit 0'))), 'the CLI works against the winner');
    check(readFileSync(serviceTokenPathOf(dataDir), 'utf8') === token, 'the service-token file is the winner’s, untouched by the loser');

    console.log('  kill -9 of the winner: the loser takes over once the lock is stale, nothing deleted by hand');
    await stop(winner);
    const takeover = await until(loser.port, serving, STALE_AFTER_MS + 120_000);
    check(serving(takeover.answer), `the loser serves after ${takeover.ms} ms (stale after ${STALE_AFTER_MS} ms; API ${takeover.answer.api}, page ${takeover.answer.page})`);
    check(readDataDirLock(dataDir)?.port === loser.port, `the lock names the new owner: port ${readDataDirLock(dataDir)?.port}`);
    check(await cliRun(configPath).then((outcome) => (console.log(`  CLI against the new owner: ${outcome}`), outcome.startsWith('exit 0'))), 'the CLI works against the new owner');
    await stop(loser);

    for (const [label, pidOf] of [
      ['its own PID (a restarted container)', (server: Server) => server.process.pid!],
      ['a live, unrelated PID (this bench)', () => process.pid],
    ] as const) {
      // As a crash leaves it, 1 s short of stale: the server waits for it, then takes it over.
      rmSync(lockPathOf(dataDir), { recursive: true, force: true });
      const server = startServer(configPath, BASE_PORT + 2);
      servers.push(server);
      plantStaleLock(dataDir, pidOf(server), STALE_AFTER_MS - 1_000);
      const started = await until(server.port, serving, STALE_AFTER_MS + 180_000);
      check(serving(started.answer) && readDataDirLock(dataDir)?.pid === server.process.pid, `a server over a stale lock naming ${label} serves after ${started.ms} ms`);
      await stop(server);
    }
    return ok;
  } finally {
    for (const server of servers) await stop(server);
    rmSync(root, { recursive: true, force: true });
  }
}
