import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { acquireDataDirLock, claimDataDirForProcess, type DataDirLock, lockPathOf, readDataDirLock } from './data-dir-lock';

const root = mkdtempSync(path.join(tmpdir(), 'cr-lock-'));
const held: DataDirLock[] = [];
const children: ChildProcess[] = [];

afterEach(() => {
  for (const lock of held.splice(0)) lock.release();
});

afterAll(() => {
  for (const child of children) if (child.exitCode === null) child.kill();
  rmSync(root, { recursive: true, force: true });
});

/** A real process that stays alive until killed. */
const liveProcess = (): ChildProcess => {
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
  children.push(child);
  return child;
};

/** The pid of a process that has exited. */
const deadPid = async (): Promise<number> => {
  const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
  await new Promise((resolve) => child.once('exit', resolve));
  return child.pid!;
};

describe('data directory lock', () => {
  it('writes <dir>.lock beside the directory with pid, port and start time, and release removes it', () => {
    const dataDir = path.join(root, 'a', 'pglite');
    const lock = acquireDataDirLock(dataDir, { port: 3100 });
    expect(lock.path).toBe(path.join(root, 'a', 'pglite.lock'));
    const written = JSON.parse(readFileSync(lock.path, 'utf8'));
    expect(written).toMatchObject({ pid: process.pid, port: 3100 });
    expect(Number.isNaN(Date.parse(written.startedAt))).toBe(false);
    expect(readDataDirLock(dataDir)).toMatchObject({ pid: process.pid, port: 3100, alive: true });
    lock.release();
    expect(existsSync(lock.path)).toBe(false);
    expect(readDataDirLock(dataDir)).toBeUndefined();
  });

  it('refuses a directory held by a live process, naming its pid and port', async () => {
    const dataDir = path.join(root, 'b', 'pglite');
    const owner = liveProcess();
    held.push(acquireDataDirLock(dataDir));
    held[0].release();
    writeFileSync(lockPathOf(dataDir), JSON.stringify({ pid: owner.pid, port: 4321, startedAt: new Date().toISOString() }));
    let thrown: unknown;
    try {
      acquireDataDirLock(dataDir);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toMatchObject({ code: 'DATA_DIR_LOCKED', details: { pid: owner.pid, port: 4321 } });
    const message = (thrown as Error).message;
    expect(message).toContain(`process ${owner.pid}`);
    expect(message).toContain('port 4321');
    expect(message).toMatch(/use the running server .* or stop process/i);
    // The live owner's lock is untouched.
    expect(JSON.parse(readFileSync(lockPathOf(dataDir), 'utf8')).pid).toBe(owner.pid);
  });

  it('refuses a second acquisition in the same process', () => {
    const dataDir = path.join(root, 'c', 'pglite');
    held.push(acquireDataDirLock(dataDir));
    expect(() => acquireDataDirLock(dataDir)).toThrow(expect.objectContaining({ code: 'DATA_DIR_LOCKED', details: expect.objectContaining({ pid: process.pid, port: null }) }));
  });

  it('takes over the lock of a dead process', async () => {
    const dataDir = path.join(root, 'd', 'pglite');
    const pid = await deadPid();
    mkdirSync(path.join(root, 'd'));
    writeFileSync(path.join(root, 'd', 'pglite.lock'), JSON.stringify({ pid, port: 9999, startedAt: '2020-01-01T00:00:00.000Z' }));
    expect(readDataDirLock(dataDir)).toMatchObject({ pid, alive: false });
    const lock = acquireDataDirLock(dataDir, { port: 3200 });
    held.push(lock);
    expect(readDataDirLock(dataDir)).toMatchObject({ pid: process.pid, port: 3200, alive: true });
  });

  it('takes over an unreadable (torn) lock file', () => {
    const dataDir = path.join(root, 'e', 'pglite');
    held.push(acquireDataDirLock(dataDir));
    held.pop()!.release();
    writeFileSync(lockPathOf(dataDir), '{"pid": 12');
    held.push(acquireDataDirLock(dataDir));
    expect(readDataDirLock(dataDir)?.pid).toBe(process.pid);
  });

  it('records the port once the server listens', () => {
    const dataDir = path.join(root, 'f', 'pglite');
    const lock = acquireDataDirLock(dataDir);
    held.push(lock);
    expect(readDataDirLock(dataDir)?.port).toBeUndefined();
    lock.setPort(3300);
    expect(readDataDirLock(dataDir)).toMatchObject({ pid: process.pid, port: 3300 });
    expect(lock.info.port).toBe(3300);
  });

  it('does not remove a lock that another process took after ours', () => {
    const dataDir = path.join(root, 'g', 'pglite');
    const lock = acquireDataDirLock(dataDir);
    const owner = liveProcess();
    writeFileSync(lock.path, JSON.stringify({ pid: owner.pid, startedAt: new Date().toISOString() }));
    lock.release();
    expect(readDataDirLock(dataDir)?.pid).toBe(owner.pid);
  });

  it('a process claim outlives each open: opens lease it one at a time, and releasing a lease keeps the lock file', () => {
    const dataDir = path.join(root, 'h', 'pglite');
    expect(claimDataDirForProcess(dataDir, { port: 3400 })).toMatchObject({ pid: process.pid, port: 3400 });
    // Idempotent: the server claims on every open attempt.
    expect(claimDataDirForProcess(dataDir, { port: 3400 }).pid).toBe(process.pid);
    const lease = acquireDataDirLock(dataDir);
    expect(() => acquireDataDirLock(dataDir)).toThrow(expect.objectContaining({ code: 'DATA_DIR_LOCKED' }));
    lease.release();
    // A failed open released its lease; the directory is still this process's, with its port, for the CLI to see.
    expect(readDataDirLock(dataDir)).toMatchObject({ pid: process.pid, port: 3400, alive: true });
    const retry = acquireDataDirLock(dataDir);
    retry.release();
    expect(existsSync(lockPathOf(dataDir))).toBe(true);
  });
});
