/**
 * Issue 13, point 4: the CLI never forks the truth. It works through the server that holds the data
 * directory (whatever database its own config names), refuses to create an embedded database
 * beside a server that keeps its data in PostgreSQL, and offline takes the same lock a server would.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { resetServerEnv } from '../config/env';
import { acquireDataDirLock, holdsDataDir, readDataDirLock } from '../services/data-dir-lock';
import { connectRuntime } from './connect-runtime';

const root = mkdtempSync(path.join(tmpdir(), 'cr-cli-connect-'));
const children: ChildProcess[] = [];
const saved = { dataDir: process.env.CONTEXT_RUNTIME_DATA_DIR, url: process.env.DATABASE_URL };

beforeAll(() => {
  // The config files below name the directory and the database; the environment would override them.
  delete process.env.CONTEXT_RUNTIME_DATA_DIR;
  delete process.env.DATABASE_URL;
  resetServerEnv();
});

afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
});

afterAll(() => {
  if (saved.dataDir !== undefined) process.env.CONTEXT_RUNTIME_DATA_DIR = saved.dataDir;
  if (saved.url !== undefined) process.env.DATABASE_URL = saved.url;
  resetServerEnv();
  rmSync(root, { recursive: true, force: true });
});

function configFor(name: string, database: { url?: string } = {}): { configPath: string; dataDir: string } {
  const dataDir = path.join(root, name, 'pglite');
  const configPath = path.join(root, `${name}.yaml`);
  writeFileSync(configPath, `database:\n  data_dir: ${dataDir}\n${database.url ? `  url: ${database.url}\n` : ''}demo:\n  load_on_start: false\n`);
  return { configPath, dataDir };
}

/** Another process holding the directory as a server would (port) or as an offline CLI (no port). */
async function holder(dataDir: string, options: { readonly port?: number; readonly database?: 'embedded' | 'postgres' }): Promise<ChildProcess> {
  const lockModule = fileURLToPath(new URL('../services/data-dir-lock.ts', import.meta.url));
  const script = `const { claimDataDirForProcess } = await import(${JSON.stringify(lockModule)}); claimDataDirForProcess(${JSON.stringify(dataDir)}, ${JSON.stringify(options)}); console.log('held'); setInterval(() => {}, 1000);`;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(child);
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => chunk.toString().includes('held') && resolve());
    child.once('exit', (code) => reject(new Error(`holder exited ${code}`)));
  });
  return child;
}

async function refusal(work: () => Promise<unknown>): Promise<Error & { code?: string }> {
  try {
    await work();
  } catch (error) {
    return error as Error & { code?: string };
  }
  throw new Error('expected a refusal');
}

describe('where the CLI runs its work', () => {
  it('works through a live server that keeps its data in PostgreSQL, and says so, when it has no DATABASE_URL itself', async () => {
    const { configPath, dataDir } = configFor('postgres-server');
    await holder(dataDir, { port: 4610, database: 'postgres' });
    const client = await connectRuntime(configPath);
    expect(client.via).toBe('http://127.0.0.1:4610');
    expect(client.notice).toMatch(/keeps its data in PostgreSQL and this CLI has no DATABASE_URL: working through the server/);
    expect(existsSync(dataDir)).toBe(false);
  });

  it('works through a live server on the embedded database even when its own config names a DATABASE_URL, and says so', async () => {
    const { configPath, dataDir } = configFor('embedded-server', { url: 'postgres://cli@127.0.0.1:1/elsewhere' });
    await holder(dataDir, { port: 4611, database: 'embedded' });
    const client = await connectRuntime(configPath);
    expect(client.via).toBe('http://127.0.0.1:4611');
    expect(client.notice).toContain("working through it, not on this CLI's DATABASE_URL");
  });

  it('refuses a directory another CLI holds (no server port), without opening it', async () => {
    const { configPath, dataDir } = configFor('other-cli');
    const other = await holder(dataDir, {});
    const error = await refusal(() => connectRuntime(configPath));
    expect(error.code).toBe('DATA_DIR_LOCKED');
    expect(error.message).toContain(`in use by process ${other.pid}`);
    expect(existsSync(dataDir)).toBe(false);
  });

  it('with no server running, refuses to create an embedded database where the last server kept its data in PostgreSQL', async () => {
    const { configPath, dataDir } = configFor('postgres-server-stopped');
    // The server ran and stopped cleanly: no lock, but its owner record says where its data is.
    const server = await holder(dataDir, { port: 4612, database: 'postgres' });
    server.kill('SIGKILL');
    await new Promise((resolve) => server.once('exit', resolve));
    rmSync(`${dataDir}.lock`, { recursive: true });
    const error = await refusal(() => connectRuntime(configPath));
    expect(error.message).toMatch(/keeps its data in PostgreSQL, and this CLI has no DATABASE_URL: it would create a separate, empty embedded database/);
    expect(existsSync(dataDir)).toBe(false);
  });

  it('with no server running, opens the directory itself and holds the same lock a server would', async () => {
    const { configPath, dataDir } = configFor('offline');
    const client = await connectRuntime(configPath);
    try {
      expect(client.via).toBe('this process');
      expect(client.notice).toBeUndefined();
      expect(holdsDataDir(dataDir)).toBe(true);
      expect(readDataDirLock(dataDir)).toMatchObject({ pid: process.pid, database: 'embedded', alive: true });
      expect(() => acquireDataDirLock(dataDir)).toThrow(expect.objectContaining({ code: 'DATA_DIR_LOCKED' }));
    } finally {
      await client.close();
    }
    expect(holdsDataDir(dataDir)).toBe(false);
    expect(readDataDirLock(dataDir)).toBeUndefined();
  }, 120_000);
});
