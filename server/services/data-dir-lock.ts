import { closeSync, mkdirSync, openSync, readFileSync, unlinkSync, writeFileSync, writeSync } from 'node:fs';
import path from 'node:path';
import { ContextRuntimeError } from '../runtime/errors';

/**
 * One process owns an embedded PGlite data directory: PGlite has no multi-process locking, and
 * two writers corrupt it. The lock is a JSON file beside the directory (`<dir>.lock`, outside
 * PGlite's own files), created with O_EXCL so two starters cannot both win.
 */
export interface DataDirLockInfo {
  readonly pid: number;
  readonly port?: number;
  readonly startedAt: string;
}

export interface DataDirLock {
  readonly path: string;
  readonly info: DataDirLockInfo;
  /** Records the HTTP port once the server listens, so the CLI can find it. */
  setPort(port: number): void;
  release(): void;
}

export const lockPathOf = (dataDir: string): string => {
  const resolved = path.resolve(dataDir);
  return path.join(path.dirname(resolved), `${path.basename(resolved)}.lock`);
};

/** Reads the lock and whether its owner still runs; undefined when nobody holds it. */
export function readDataDirLock(dataDir: string): (DataDirLockInfo & { readonly alive: boolean }) | undefined {
  const info = readLockFile(lockPathOf(dataDir));
  return info ? Object.freeze({ ...info, alive: isAlive(info.pid) }) : undefined;
}

const CLAIMS_KEY = Symbol.for('context-runtime.data-dir-claims');
type Claim = { readonly lock: DataDirLock; leased: boolean };
type ClaimHolder = { [CLAIMS_KEY]?: Map<string, Claim> };
/** On globalThis: each Next.js route bundle has its own copy of this module, the process has one claim. */
const claims = (): Map<string, Claim> => ((globalThis as ClaimHolder)[CLAIMS_KEY] ??= new Map());

/**
 * The server's hold on its data directory, for the life of the process rather than of one open
 * runtime: a server whose runtime failed to open (and retries per request) still owns the
 * directory, so the CLI talks to it instead of opening the database beside it (issue 10: an
 * account created on such a server vanished). Idempotent; released only when the process exits.
 * While claimed, acquireDataDirLock in this process leases the claim (one lease at a time).
 */
export function claimDataDirForProcess(dataDir: string, options: { readonly port?: number } = {}): DataDirLockInfo {
  const existing = claims().get(lockPathOf(dataDir));
  if (existing) return existing.lock.info;
  const lock = acquireFileLock(dataDir, options);
  claims().set(lock.path, { lock, leased: false });
  return lock.info;
}

export function acquireDataDirLock(dataDir: string, options: { readonly port?: number } = {}): DataDirLock {
  const claim = claims().get(lockPathOf(dataDir));
  return claim ? leaseOf(dataDir, claim) : acquireFileLock(dataDir, options);
}

/** A handle over the process's claim: release() ends the lease, the lock file stays until exit. */
function leaseOf(dataDir: string, claim: Claim): DataDirLock {
  if (claim.leased) throw lockedError(dataDir, claim.lock.path, claim.lock.info);
  claim.leased = true;
  let released = false;
  return {
    path: claim.lock.path,
    get info() {
      return claim.lock.info;
    },
    setPort: (port: number) => claim.lock.setPort(port),
    release() {
      if (released) return;
      released = true;
      claim.leased = false;
    },
  };
}

function acquireFileLock(dataDir: string, options: { readonly port?: number }): DataDirLock {
  const lockPath = lockPathOf(dataDir);
  mkdirSync(path.dirname(lockPath), { recursive: true });
  let info: DataDirLockInfo = Object.freeze({ pid: process.pid, ...(options.port !== undefined ? { port: options.port } : {}), startedAt: new Date().toISOString() });
  // Two attempts: the second follows removing a dead owner's lock.
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      const descriptor = openSync(lockPath, 'wx');
      try {
        writeSync(descriptor, JSON.stringify(info));
      } finally {
        closeSync(descriptor);
      }
      return handleFor(lockPath, () => info, (next) => (info = next));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const holder = readLockFile(lockPath);
    if (holder && isAlive(holder.pid)) throw lockedError(dataDir, lockPath, holder);
    removeIfUnchanged(lockPath, holder);
  }
  throw new ContextRuntimeError('DATA_DIR_LOCKED', `could not take the lock ${lockPath}: another process is starting on ${path.resolve(dataDir)}`, {
    details: { lockPath },
  });
}

function handleFor(lockPath: string, current: () => DataDirLockInfo, replace: (info: DataDirLockInfo) => void): DataDirLock {
  // A clean exit (including process.exit) frees the lock; a crash leaves it for the dead-pid takeover.
  const onExit = () => removeIfUnchanged(lockPath, current());
  process.once('exit', onExit);
  return {
    path: lockPath,
    get info() {
      return current();
    },
    setPort(port: number) {
      const next = Object.freeze({ ...current(), port });
      writeFileSync(lockPath, JSON.stringify(next));
      replace(next);
    },
    release() {
      process.removeListener('exit', onExit);
      removeIfUnchanged(lockPath, current());
    },
  };
}

function lockedError(dataDir: string, lockPath: string, holder: DataDirLockInfo): ContextRuntimeError {
  const where = holder.port !== undefined ? `a server on port ${holder.port}` : 'a process with no server port recorded';
  return new ContextRuntimeError(
    'DATA_DIR_LOCKED',
    `data directory ${path.resolve(dataDir)} is in use by process ${holder.pid} (${where}). ` +
      `Use the running server${holder.port !== undefined ? ` at http://localhost:${holder.port}` : ''} or stop process ${holder.pid} first.`,
    { details: { pid: holder.pid, port: holder.port ?? null, lockPath, startedAt: holder.startedAt } },
  );
}

function readLockFile(lockPath: string): DataDirLockInfo | undefined {
  let text: string;
  try {
    text = readFileSync(lockPath, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    const parsed = JSON.parse(text) as Partial<DataDirLockInfo>;
    if (Number.isInteger(parsed.pid) && (parsed.pid as number) > 0) {
      return Object.freeze({ pid: parsed.pid as number, ...(typeof parsed.port === 'number' ? { port: parsed.port } : {}), startedAt: String(parsed.startedAt ?? '') });
    }
  } catch {
    // Torn write from a crash mid-start: nobody can own an unreadable lock.
  }
  return Object.freeze({ pid: 0, startedAt: '' });
}

/** Signal 0 tests existence; EPERM means it exists under another user. */
function isAlive(pid: number): boolean {
  if (pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Deletes the lock only if it still holds what we read, narrowing the window where a newcomer's lock is removed. */
function removeIfUnchanged(lockPath: string, expected: DataDirLockInfo | undefined): void {
  const now = readLockFile(lockPath);
  if (!now || !expected || now.pid !== expected.pid || now.startedAt !== expected.startedAt) return;
  try {
    unlinkSync(lockPath);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}
