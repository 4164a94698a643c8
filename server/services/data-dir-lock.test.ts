import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { acquireDataDirLock, claimDataDirForProcess, type DataDirLock, holdsDataDir, lastDataDirOwner, lockPathOf, ownerPathOf, readDataDirLock, releaseDataDirClaim } from './data-dir-lock';
import { STALE_AFTER_MS } from './directory-lock';

const root = mkdtempSync(path.join(tmpdir(), 'cr-lock-'));
const held: DataDirLock[] = [];
const children: ChildProcess[] = [];
const lockModule = fileURLToPath(new URL('./data-dir-lock.ts', import.meta.url));

afterEach(() => {
  for (const lock of held.splice(0)) lock.release();
});

afterAll(() => {
  // The claim test's lock would otherwise outlive its directory and report itself lost.
  releaseDataDirClaim(path.join(root, 'k', 'pglite'));
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  rmSync(root, { recursive: true, force: true });
});

/** A real process that stays alive until killed. */
const liveProcess = (): ChildProcess => {
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
  children.push(child);
  return child;
};

/**
 * Another process that tries the lock at `startAt` (epoch ms, so several race) and prints `won` or
 * `refused <code>`; a winner keeps the lock until killed (`hold`) or exits.
 */
function contender(dataDir: string, options: { readonly startAt?: number; readonly hold?: boolean; readonly port?: number } = {}): { child: ChildProcess; outcome: Promise<string> } {
  const script = `
    const { acquireDataDirLock } = await import(${JSON.stringify(lockModule)});
    while (Date.now() < ${options.startAt ?? 0}) {}
    try {
      acquireDataDirLock(${JSON.stringify(dataDir)}, { port: ${options.port ?? 'undefined'} });
      console.log('won');
      if (${Boolean(options.hold)}) setInterval(() => {}, 1000); else process.exit(0);
    } catch (error) {
      console.log('refused ' + error.code);
      process.exit(0);
    }`;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(child);
  const outcome = new Promise<string>((resolve, reject) => {
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('\n')) resolve(output.trim());
    });
    child.once('exit', (code) => (output.includes('\n') ? undefined : reject(new Error(`contender exited ${code} without an outcome`))));
  });
  return { child, outcome };
}

/** Makes the lock at `dataDir` look last refreshed `ageMs` ago, as a holder that died that long ago leaves it. */
const age = (dataDir: string, ageMs: number) => {
  const then = new Date(Date.now() - ageMs);
  utimesSync(lockPathOf(dataDir), then, then);
};

/** A lock left by a holder that died: the directory, and an owner record naming `pid`. */
function plantStaleLock(dataDir: string, pid: number): void {
  mkdirSync(lockPathOf(dataDir), { recursive: true });
  writeFileSync(ownerPathOf(dataDir), JSON.stringify({ pid, port: 9999, startedAt: '2020-01-01T00:00:00.000Z' }));
  age(dataDir, STALE_AFTER_MS + 5_000);
}

describe('data directory lock', () => {
  it('is a directory <dir>.lock beside the data directory, with the owner in <dir>.lock.json; release removes the lock and keeps the record of the last owner', () => {
    const dataDir = path.join(root, 'a', 'pglite');
    const lock = acquireDataDirLock(dataDir, { port: 3100 });
    expect(lock.path).toBe(path.join(root, 'a', 'pglite.lock'));
    expect(statSync(lock.path).isDirectory()).toBe(true);
    const written = JSON.parse(readFileSync(ownerPathOf(dataDir), 'utf8'));
    expect(written).toMatchObject({ pid: process.pid, port: 3100, database: 'embedded' });
    expect(Number.isNaN(Date.parse(written.startedAt))).toBe(false);
    expect(readDataDirLock(dataDir)).toMatchObject({ pid: process.pid, port: 3100, alive: true });
    expect(holdsDataDir(dataDir)).toBe(true);
    lock.release();
    expect(existsSync(lock.path)).toBe(false);
    expect(readDataDirLock(dataDir)).toBeUndefined();
    expect(lastDataDirOwner(dataDir)).toMatchObject({ pid: process.pid, port: 3100, database: 'embedded' });
    expect(holdsDataDir(dataDir)).toBe(false);
  });

  it('refuses a directory another live process holds, naming its pid and port, and leaves its lock alone', async () => {
    const dataDir = path.join(root, 'b', 'pglite');
    const owner = contender(dataDir, { hold: true, port: 4321 });
    expect(await owner.outcome).toBe('won');
    let thrown: unknown;
    try {
      acquireDataDirLock(dataDir);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toMatchObject({ code: 'DATA_DIR_LOCKED', details: { pid: owner.child.pid, port: 4321 } });
    expect((thrown as Error).message).toMatch(new RegExp(`process ${owner.child.pid} \\(a server on port 4321; its lock was refreshed \\d+ s ago`));
    expect((thrown as Error).message).toMatch(/use the running server at http:\/\/localhost:4321 or stop process/i);
    expect(readDataDirLock(dataDir)).toMatchObject({ pid: owner.child.pid, alive: true });
    expect(holdsDataDir(dataDir)).toBe(false);
  });

  it('refuses a second acquisition in the same process', () => {
    const dataDir = path.join(root, 'c', 'pglite');
    held.push(acquireDataDirLock(dataDir));
    expect(() => acquireDataDirLock(dataDir)).toThrow(expect.objectContaining({ code: 'DATA_DIR_LOCKED', details: expect.objectContaining({ pid: process.pid, port: null }) }));
  });

  it('takes over a stale lock that names this very process (a restarted container reuses its PID)', () => {
    const dataDir = path.join(root, 'd', 'pglite');
    plantStaleLock(dataDir, process.pid);
    expect(readDataDirLock(dataDir)).toMatchObject({ pid: process.pid, alive: false });
    held.push(acquireDataDirLock(dataDir, { port: 3200 }));
    expect(readDataDirLock(dataDir)).toMatchObject({ pid: process.pid, port: 3200, alive: true });
  });

  it('takes over a stale lock that names a live, unrelated process', () => {
    const dataDir = path.join(root, 'e', 'pglite');
    const unrelated = liveProcess();
    plantStaleLock(dataDir, unrelated.pid!);
    held.push(acquireDataDirLock(dataDir));
    expect(readDataDirLock(dataDir)).toMatchObject({ pid: process.pid, alive: true });
    expect(unrelated.exitCode).toBeNull();
  });

  it('takes over the JSON lock file of earlier versions once it is stale, whatever PID it names', () => {
    const dataDir = path.join(root, 'f', 'pglite');
    mkdirSync(path.dirname(dataDir), { recursive: true });
    writeFileSync(lockPathOf(dataDir), JSON.stringify({ pid: process.pid, startedAt: '2020-01-01T00:00:00.000Z' }));
    age(dataDir, STALE_AFTER_MS + 1_000);
    held.push(acquireDataDirLock(dataDir));
    expect(statSync(lockPathOf(dataDir)).isDirectory()).toBe(true);
  });

  it('a holder killed with SIGKILL keeps the directory until its lock goes stale, then it is taken over without deleting anything by hand', async () => {
    const dataDir = path.join(root, 'g', 'pglite');
    const owner = contender(dataDir, { hold: true, port: 4400 });
    expect(await owner.outcome).toBe('won');
    owner.child.kill('SIGKILL');
    await new Promise((resolve) => owner.child.once('exit', resolve));
    // Dead, but the lock is fresh: refused (a PID check would have let us in — and let in a PID reuser too).
    expect(() => acquireDataDirLock(dataDir)).toThrow(expect.objectContaining({ code: 'DATA_DIR_LOCKED' }));
    age(dataDir, STALE_AFTER_MS + 1_000);
    held.push(acquireDataDirLock(dataDir, { port: 4401 }));
    expect(readDataDirLock(dataDir)).toMatchObject({ pid: process.pid, port: 4401, alive: true });
  });

  it('of several processes racing for one stale lock, exactly one wins', async () => {
    for (let round = 0; round < 1; round += 1) {
      const dataDir = path.join(root, `race-${round}`, 'pglite');
      plantStaleLock(dataDir, process.pid);
      const startAt = Date.now() + 2_500;
      const racers = Array.from({ length: 4 }, () => contender(dataDir, { startAt, hold: true }));
      const outcomes = await Promise.all(racers.map((racer) => racer.outcome));
      expect(outcomes.filter((outcome) => outcome === 'won'), outcomes.join(', ')).toHaveLength(1);
      expect(outcomes.filter((outcome) => outcome === 'refused DATA_DIR_LOCKED')).toHaveLength(3);
      for (const racer of racers) racer.child.kill('SIGKILL');
    }
  }, 60_000);

  it('keeps the lock fresh for as long as the process lives', async () => {
    const dataDir = path.join(root, 'h', 'pglite');
    held.push(acquireDataDirLock(dataDir));
    const first = statSync(lockPathOf(dataDir)).mtimeMs;
    await new Promise((resolve) => setTimeout(resolve, 4_800));
    expect(statSync(lockPathOf(dataDir)).mtimeMs).toBeGreaterThan(first);
    expect(readDataDirLock(dataDir)?.refreshedMsAgo).toBeLessThan(2_000);
  }, 15_000);

  it('tells the holder when another process took its lock, so it stops writing', async () => {
    const dataDir = path.join(root, 'i', 'pglite');
    const onLost = vi.fn();
    const lock = acquireDataDirLock(dataDir, { onLost });
    // What a takeover does to a holder whose event loop froze past the stale age.
    rmSync(lockPathOf(dataDir), { recursive: true });
    mkdirSync(lockPathOf(dataDir));
    await vi.waitFor(() => expect(onLost).toHaveBeenCalledOnce(), { timeout: 8_000, interval: 200 });
    expect(holdsDataDir(dataDir)).toBe(false);
    lock.release();
    // The newcomer's lock is left in place.
    expect(existsSync(lockPathOf(dataDir))).toBe(true);
  }, 15_000);

  it('records the port once the server listens', () => {
    const dataDir = path.join(root, 'j', 'pglite');
    const lock = acquireDataDirLock(dataDir);
    held.push(lock);
    expect(readDataDirLock(dataDir)?.port).toBeUndefined();
    lock.setPort(3300);
    expect(readDataDirLock(dataDir)).toMatchObject({ pid: process.pid, port: 3300 });
    expect(lock.info.port).toBe(3300);
  });

  it('a process claim outlives each open: opens lease it one at a time, and releasing a lease keeps the lock', () => {
    const dataDir = path.join(root, 'k', 'pglite');
    expect(claimDataDirForProcess(dataDir, { port: 3400 })).toMatchObject({ pid: process.pid, port: 3400 });
    // Idempotent: the server claims on every open attempt.
    expect(claimDataDirForProcess(dataDir, { port: 3400 }).pid).toBe(process.pid);
    const lease = acquireDataDirLock(dataDir);
    expect(() => acquireDataDirLock(dataDir)).toThrow(expect.objectContaining({ code: 'DATA_DIR_LOCKED' }));
    lease.release();
    // A failed open released its lease; the directory is still this process's, with its port, for the CLI to see.
    expect(readDataDirLock(dataDir)).toMatchObject({ pid: process.pid, port: 3400, alive: true });
    expect(holdsDataDir(dataDir)).toBe(true);
    const retry = acquireDataDirLock(dataDir);
    retry.release();
    expect(existsSync(lockPathOf(dataDir))).toBe(true);
  });
});
