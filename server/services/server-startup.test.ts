/**
 * Issue 13, point 4: a second server started on a data directory another process holds was refused
 * the lock but answered 200 and rewrote the CLI's service-token file. Refused, a server touches
 * nothing and answers 503 on every route; it takes over by itself once the holder is gone.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { NextRequest } from 'next/server';
import { afterAll, describe, expect, it } from 'vitest';
import { resetServerEnv } from '../config/env';
import { registeredAuthDatabase } from '../auth/auth-database-holder';
import { secretPathOf, serviceTokenPathOf } from '../auth/local-secrets';
import { lockPathOf, readDataDirLock, releaseDataDirClaim } from './data-dir-lock';
import { dataDirRefusal } from './data-dir-refusal';
import { STALE_AFTER_MS } from './directory-lock';
import { getRuntime } from './runtime-instance';
import { startServer } from './server-startup';

const root = mkdtempSync(path.join(tmpdir(), 'cr-refused-server-'));
const dataDir = path.join(root, 'pglite');
const configPath = path.join(root, 'context-runtime.yaml');
const saved = { config: process.env.CONTEXT_RUNTIME_CONFIG, dataDir: process.env.CONTEXT_RUNTIME_DATA_DIR, port: process.env.PORT, url: process.env.DATABASE_URL };
let holder: ChildProcess | undefined;

afterAll(async () => {
  holder?.kill('SIGKILL');
  const runtime = (await getRuntime().catch(() => undefined)) as { close?: () => Promise<void> } | undefined;
  await runtime?.close?.();
  for (const [key, value] of [['CONTEXT_RUNTIME_CONFIG', saved.config], ['CONTEXT_RUNTIME_DATA_DIR', saved.dataDir], ['PORT', saved.port], ['DATABASE_URL', saved.url]] as const) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
  resetServerEnv();
  releaseDataDirClaim(dataDir);
  rmSync(root, { recursive: true, force: true });
});

/** Another server process holding the directory's lock, recorded with port 4555. */
async function holdElsewhere(): Promise<ChildProcess> {
  const lockModule = fileURLToPath(new URL('./data-dir-lock.ts', import.meta.url));
  const script = `const { claimDataDirForProcess } = await import(${JSON.stringify(lockModule)}); claimDataDirForProcess(${JSON.stringify(dataDir)}, { port: 4555 }); console.log('held'); setInterval(() => {}, 1000);`;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => chunk.toString().includes('held') && resolve());
    child.once('exit', (code) => reject(new Error(`holder exited ${code}`)));
  });
  return child;
}

describe('a server refused its data directory', () => {
  it('answers 503 with the reason on every route, writes no token, opens no database, and takes over once the holder is gone', async () => {
    writeFileSync(configPath, `database:\n  data_dir: ${dataDir}\ndemo:\n  load_on_start: false\n`);
    process.env.CONTEXT_RUNTIME_CONFIG = configPath;
    delete process.env.CONTEXT_RUNTIME_DATA_DIR;
    // The embedded database: what the directory's lock guards (CI may set DATABASE_URL for other files).
    delete process.env.DATABASE_URL;
    process.env.PORT = '4556';
    resetServerEnv();
    holder = await holdElsewhere();
    const lines: string[] = [];

    const start = await startServer({ retryMs: 200, log: (line) => lines.push(line), warn: (line) => lines.push(line) });

    expect(start.outcome).toBe('refused');
    expect(lines.join('\n')).toMatch(/not serving \(503 on every route\): data directory .* is in use by process \d+ \(a server on port 4555/);
    expect(dataDirRefusal()).toContain(`process ${holder.pid}, a server on port 4555`);
    const { POST } = await import('@/app/api/trpc/[trpc]/route');
    const api = await POST(new Request('http://localhost:4556/api/trpc/runtime.run', { method: 'POST', body: '{"goal":"x"}', headers: { 'content-type': 'application/json' } }));
    expect(api.status).toBe(503);
    expect(await api.json()).toMatchObject({ error: { code: 'DATA_DIR_LOCKED', message: expect.stringContaining(`process ${holder.pid}`) } });
    const { GET: signIn } = await import('@/app/api/auth/[...nextauth]/route');
    expect((await signIn(new Request('http://localhost:4556/api/auth/session'), { params: Promise.resolve({ nextauth: ['session'] }) })).status).toBe(503);
    const { proxy } = await import('@/proxy');
    const page = await proxy(new NextRequest('http://localhost:4556/plans'));
    expect(page.status).toBe(503);
    expect(await page.text()).toContain('owns this server&#39;s data directory');
    // A request that reaches the runtime anyway is refused before anything opens.
    await expect(getRuntime()).rejects.toMatchObject({ code: 'DATA_DIR_LOCKED' });
    // Touched nothing: no token for the CLI, no signing secret, no database, no sign-in database.
    expect(existsSync(serviceTokenPathOf(dataDir))).toBe(false);
    expect(existsSync(secretPathOf(dataDir))).toBe(false);
    expect(existsSync(dataDir)).toBe(false);
    expect(registeredAuthDatabase()).toBeUndefined();
    expect(readDataDirLock(dataDir)).toMatchObject({ pid: holder.pid, port: 4555, alive: true });

    // The holder dies (kill -9): once its lock is stale, this server takes over with nothing deleted by hand.
    holder.kill('SIGKILL');
    await new Promise((resolve) => holder!.once('exit', resolve));
    const then = new Date(Date.now() - STALE_AFTER_MS - 1_000);
    utimesSync(lockPathOf(dataDir), then, then);
    await start.started;
    expect(dataDirRefusal()).toBeUndefined();
    expect(readDataDirLock(dataDir)).toMatchObject({ pid: process.pid, port: 4556, alive: true });
    expect(existsSync(serviceTokenPathOf(dataDir))).toBe(true);
    expect(registeredAuthDatabase()).toBeDefined();
    expect(lines.join('\n')).toContain('took the data directory over');
  }, 120_000);
});
