/**
 * The load half of `npm run bench:durability` (issue 13 acceptance, "load on one server"): a real
 * `next start` server from the current build (not the route handlers in process: the measured
 * memory is the server's own), on an embedded data directory, with a loopback OpenAI-compatible
 * model answering after 200 ms. An operator API key (created with the CLI against that server)
 * submits `--api-runs` runs at once through `POST /api/v1/runs`, then polls `GET /api/v1/runs/{id}`
 * every 250 ms until each ends. Prints p50/p99 run latency (submitted → seen ended), HTTP errors,
 * failed runs, and the server's resident memory (its process and children, /proc VmRSS) before and
 * after. `limits.runs.max_concurrent_per_user` is raised to 1000: with the default 4, one key's
 * 50 concurrent runs are refused with 429 by design. Needs a build (`npm run build`); skips without one.
 *
 * Measured 2026-12-02 (2 cores shared with seven other jobs, load average ~25):
 *   warm-up run: HTTP 200
 *   50 concurrent runs through POST /api/v1/runs (polled every 250 ms): wall 94.5 s, p50 87.88 s,
 *   p99 94.45 s; ended completed 50; HTTP errors 0
 *   server resident memory: before 712 MiB, after 836 MiB
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { stringify } from 'yaml';
import { DEMO_QUESTION } from '../server/ingest/demo-corpus';
import { withYoungGeneration } from '../scripts/young-generation.mjs';
import { startDurabilityModel } from './durability-model';

const projectRoot = resolve(import.meta.dirname, '..');
const nextBin = join(projectRoot, 'node_modules', 'next', 'dist', 'bin', 'next');
const cliBin = join(projectRoot, 'bin', 'context-runtime.mjs');
const PORT = Number(process.env.BENCH_API_PORT ?? 3480);

function environment(extra: Record<string, string>): NodeJS.ProcessEnv {
  const { CONTEXT_RUNTIME_DATA_DIR: _dataDir, DATABASE_URL: _url, ...rest } = process.env;
  return { ...rest, ...extra };
}

/** Resident memory of a process and its descendants, in MiB (Linux /proc). */
function residentMiB(pid: number): number {
  const children = (id: number): number[] => {
    const tasks = existsSync(`/proc/${id}/task`) ? readdirSync(`/proc/${id}/task`) : [];
    return tasks.flatMap((task) => {
      try {
        return readFileSync(`/proc/${id}/task/${task}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
      } catch {
        return [];
      }
    });
  };
  let kib = 0;
  for (const id of [pid, ...children(pid).flatMap((child) => [child, ...children(child)])]) {
    try {
      kib += Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${id}/status`, 'utf8'))?.[1] ?? 0);
    } catch {
      // Gone meanwhile.
    }
  }
  return kib / 1024;
}

const percentile = (sorted: readonly number[], share: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil(share * sorted.length) - 1)] : NaN);

async function untilServing(port: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const status = await fetch(`http://127.0.0.1:${port}/api/v1/openapi.json`, { signal: AbortSignal.timeout(10_000) }).then((response) => response.status, () => 0);
    if (status === 200) return true;
    await sleep(500);
  }
  return false;
}

/** Returns whether every run completed with no HTTP error. */
export async function apiLoadSection(options: { readonly runs: number }): Promise<boolean> {
  if (!existsSync(join(projectRoot, '.next', 'BUILD_ID'))) {
    console.log('api-load section skipped: it starts a `next start` server and needs a build (npm run build)');
    return true;
  }
  const root = mkdtempSync(join(tmpdir(), 'durability-api-load-'));
  const model = await startDurabilityModel(200);
  const configPath = join(root, 'context-runtime.yaml');
  writeFileSync(configPath, stringify({
    database: { data_dir: join(root, 'pglite') },
    models: { tiers: [{ name: 'remote', provider: 'openai-compatible', base_url: model.baseURL, model: 'loop-1', quality_prior: 0.9 }, { name: 'local', provider: 'extractive' }] },
    learning: { enabled: false },
    limits: { runs: { max_concurrent_per_user: 1000, max_daily_spend_usd_per_user: null } },
  }));
  // The server as `npm start` runs it: with its young generation (scripts/young-generation.mjs).
  const env = withYoungGeneration(environment({ PORT: String(PORT), CONTEXT_RUNTIME_CONFIG: configPath, CONTEXT_RUNTIME_ADMIN_EMAIL: 'bench@example.com', CONTEXT_RUNTIME_ADMIN_PASSWORD: 'bench-password-123' }));
  let server: ChildProcess | undefined;
  let log = '';
  try {
    server = spawn(process.execPath, [nextBin, 'start', '-p', String(PORT)], { cwd: projectRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
    server.stdout!.on('data', (chunk: Buffer) => (log += chunk.toString()));
    server.stderr!.on('data', (chunk: Buffer) => (log += chunk.toString()));
    if (!(await untilServing(PORT, 300_000))) {
      console.log(`api-load section: the server did not serve within 300 s:\n${log.slice(-2000)}`);
      return false;
    }
    const { stdout } = await promisify(execFile)(process.execPath, [cliBin, 'api-key', 'create', '--name', 'load', '--role', 'operator'], { cwd: projectRoot, env: environment({ CONTEXT_RUNTIME_CONFIG: configPath, CONTEXT_RUNTIME_URL: `http://127.0.0.1:${PORT}` }), timeout: 180_000 });
    const key = stdout.trim();
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    // One run first, so the server's first-use work (plugins, word vectors) is not in the figures.
    const warm = await fetch(`http://127.0.0.1:${PORT}/api/v1/runs`, { method: 'POST', headers, body: JSON.stringify({ goal: DEMO_QUESTION, wait: true }) });
    console.log(`api-load section: \`next start\` on port ${PORT} (pid ${server.pid}), embedded PGlite, model 200 ms; warm-up run: HTTP ${warm.status}`);
    const rssBefore = residentMiB(server.pid!);
    const httpErrors: string[] = [];
    const latencies: number[] = [];
    const statuses = new Map<string, number>();
    const started = performance.now();
    await Promise.all(
      Array.from({ length: options.runs }, async (_, index) => {
        const submitted = performance.now();
        const response = await fetch(`http://127.0.0.1:${PORT}/api/v1/runs`, { method: 'POST', headers, body: JSON.stringify({ goal: `${DEMO_QUESTION} (#${index + 1})` }) }).catch((error: Error) => error);
        if (response instanceof Error || response.status !== 202) {
          httpErrors.push(response instanceof Error ? response.message : `POST ${response.status}: ${(await response.text()).slice(0, 200)}`);
          return;
        }
        const { runId } = (await response.json()) as { runId: string };
        for (;;) {
          await sleep(250);
          const polled = await fetch(`http://127.0.0.1:${PORT}/api/v1/runs/${runId}`, { headers }).catch((error: Error) => error);
          if (polled instanceof Error || polled.status !== 200) {
            httpErrors.push(polled instanceof Error ? polled.message : `GET ${polled.status}`);
            if (httpErrors.length > options.runs * 4) return;
            continue;
          }
          const run = (await polled.json()) as { status: string };
          if (run.status === 'running' || run.status === 'queued') continue;
          latencies.push((performance.now() - submitted) / 1000);
          statuses.set(run.status, (statuses.get(run.status) ?? 0) + 1);
          return;
        }
      }),
    );
    const wallS = (performance.now() - started) / 1000;
    const rssAfter = residentMiB(server.pid!);
    latencies.sort((a, b) => a - b);
    console.log(`  ${options.runs} concurrent runs through POST /api/v1/runs (polled every 250 ms): wall ${wallS.toFixed(1)} s, p50 ${percentile(latencies, 0.5).toFixed(2)} s, p99 ${percentile(latencies, 0.99).toFixed(2)} s; ended ${[...statuses].map(([status, count]) => `${status} ${count}`).join(', ')}; HTTP errors ${httpErrors.length}`);
    console.log(`  server resident memory: before ${rssBefore.toFixed(0)} MiB, after ${rssAfter.toFixed(0)} MiB`);
    for (const error of [...new Set(httpErrors)].slice(0, 5)) console.log(`    error: ${error}`);
    return httpErrors.length === 0 && statuses.get('completed') === options.runs;
  } finally {
    if (server && server.exitCode === null) {
      const exited = new Promise((done) => server!.once('exit', done));
      server.kill('SIGTERM');
      await Promise.race([exited, sleep(10_000)]);
      if (server.exitCode === null) server.kill('SIGKILL');
    }
    await model.close();
    rmSync(root, { recursive: true, force: true });
  }
}
