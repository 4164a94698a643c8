import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ContextRuntimeError } from '../runtime/errors';
import { acquireDirectoryLock, DirectoryLockRefused, type HeldDirectoryLock, lockAgeMs, STALE_AFTER_MS } from './directory-lock';

/**
 * One process owns a data directory: PGlite has no multi-process locking (two writers corrupt it),
 * and the server's local secrets beside it (the CLI's service token) have one writer. The lock is
 * `<dir>.lock`, a directory its holder keeps fresh (directory-lock.ts): alive means refreshed within
 * STALE_AFTER_MS, whatever PID it names. Who holds it — PID, HTTP port, which database — is in
 * `<dir>.lock.json`, for the CLI to find the server and for error messages; it proves nothing,
 * and stays after release as the record of the last owner.
 */
export interface DataDirLockInfo {
  readonly pid: number;
  readonly port?: number;
  readonly startedAt: string;
  /** What the holder keeps its data in: a CLI without DATABASE_URL beside a Postgres server must not open PGlite here. */
  readonly database?: 'embedded' | 'postgres';
}

export interface DataDirLock {
  readonly path: string;
  readonly info: DataDirLockInfo;
  /** Records the HTTP port once the server listens, so the CLI can find it. */
  setPort(port: number): void;
  release(): void;
}

export interface DataDirLockOptions {
  readonly port?: number;
  readonly database?: 'embedded' | 'postgres';
  /** The lock was removed or replaced under this process; default: say so and exit (see loseLock). */
  readonly onLost?: (error: Error) => void;
}

export const lockPathOf = (dataDir: string): string => {
  const resolved = path.resolve(dataDir);
  return path.join(path.dirname(resolved), `${path.basename(resolved)}.lock`);
};
export const ownerPathOf = (dataDir: string): string => `${lockPathOf(dataDir)}.json`;

/** Who holds the lock and whether it is alive (refreshed recently); undefined when nobody does. */
export function readDataDirLock(dataDir: string): (DataDirLockInfo & { readonly alive: boolean; readonly refreshedMsAgo: number }) | undefined {
  const ageMs = lockAgeMs(lockPathOf(dataDir));
  if (ageMs === undefined) return undefined;
  return Object.freeze({ ...(readOwnerFile(dataDir) ?? { pid: 0, startedAt: '' }), alive: ageMs < STALE_AFTER_MS, refreshedMsAgo: ageMs });
}

/**
 * The owner record of the last holder, alive or not: kept after release, so a CLI without
 * DATABASE_URL can tell that the server it would sit beside keeps its data in PostgreSQL.
 */
export function lastDataDirOwner(dataDir: string): DataDirLockInfo | undefined {
  return readOwnerFile(dataDir);
}

const CLAIMS_KEY = Symbol.for('context-runtime.data-dir-claims');
const HELD_KEY = Symbol.for('context-runtime.data-dir-held');
type Claim = { readonly lock: DataDirLock; leased: boolean };
type ClaimHolder = { [CLAIMS_KEY]?: Map<string, Claim>; [HELD_KEY]?: Set<string> };
/** On globalThis: each Next.js route bundle has its own copy of this module, the process has one claim. */
const claims = (): Map<string, Claim> => ((globalThis as ClaimHolder)[CLAIMS_KEY] ??= new Map());
const held = (): Set<string> => ((globalThis as ClaimHolder)[HELD_KEY] ??= new Set());

/** Whether this process holds the lock on `dataDir` now — asked of the process, never of a recorded PID. */
export function holdsDataDir(dataDir: string): boolean {
  return held().has(lockPathOf(dataDir));
}

/**
 * The server's hold on its data directory, for the life of the process rather than of one open
 * runtime: a server whose runtime failed to open (and retries per request) still owns the
 * directory, so the CLI talks to it instead of opening the database beside it (issue 10: an
 * account created on such a server vanished). Idempotent; released only when the process exits.
 * While claimed, acquireDataDirLock in this process leases the claim (one lease at a time).
 */
export function claimDataDirForProcess(dataDir: string, options: DataDirLockOptions = {}): DataDirLockInfo {
  const existing = claims().get(lockPathOf(dataDir));
  if (existing) return existing.lock.info;
  const lock = acquireFileLock(dataDir, options);
  claims().set(lock.path, { lock, leased: false });
  return lock.info;
}

/**
 * Ends the process's claim (after its runtime closed): for a shutdown that outlives its data
 * directory, as a test's temporary one. Without it the claim ends when the process exits.
 */
export function releaseDataDirClaim(dataDir: string): void {
  const claim = claims().get(lockPathOf(dataDir));
  if (!claim) return;
  claims().delete(claim.lock.path);
  claim.lock.release();
}

export function acquireDataDirLock(dataDir: string, options: DataDirLockOptions = {}): DataDirLock {
  const claim = claims().get(lockPathOf(dataDir));
  return claim ? leaseOf(dataDir, claim) : acquireFileLock(dataDir, options);
}

/** A handle over the process's claim: release() ends the lease, the lock stays until exit. */
function leaseOf(dataDir: string, claim: Claim): DataDirLock {
  if (claim.leased) throw lockedError(dataDir, claim.lock.info, 0);
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

function acquireFileLock(dataDir: string, options: DataDirLockOptions): DataDirLock {
  const lockPath = lockPathOf(dataDir);
  let directoryLock: HeldDirectoryLock;
  try {
    directoryLock = acquireDirectoryLock(lockPath, (error) => {
      held().delete(lockPath);
      (options.onLost ?? loseLock(dataDir))(error);
    });
  } catch (error) {
    if (!(error instanceof DirectoryLockRefused)) throw error;
    if (error.takeoverInProgress) {
      throw new ContextRuntimeError('DATA_DIR_LOCKED', `could not take the lock ${lockPath}: another process is starting on ${path.resolve(dataDir)}`, { details: { lockPath } });
    }
    throw lockedError(dataDir, readOwnerFile(dataDir) ?? { pid: 0, startedAt: '' }, error.ageMs ?? 0);
  }
  held().add(lockPath);
  let info: DataDirLockInfo = Object.freeze({
    pid: process.pid,
    ...(options.port !== undefined ? { port: options.port } : {}),
    startedAt: new Date().toISOString(),
    database: options.database ?? 'embedded',
  });
  // Kept after release (lastDataDirOwner); the lock's age, not this record, says whether anyone holds it.
  writeOwnerFile(dataDir, info);
  return {
    path: lockPath,
    get info() {
      return info;
    },
    setPort(port: number) {
      info = Object.freeze({ ...info, port });
      writeOwnerFile(dataDir, info);
    },
    release() {
      if (!held().delete(lockPath)) return;
      directoryLock.release();
    },
  };
}

/**
 * Another process decided this one was dead and took the directory (its event loop froze past
 * STALE_AFTER_MS). Writing on would corrupt the database the new owner opened: stop now.
 */
const loseLock = (dataDir: string) => (error: Error) => {
  console.error(`[context-runtime] lost the lock on ${path.resolve(dataDir)} (${error.message}); exiting so two processes never write one database`);
  process.exit(1);
};

function lockedError(dataDir: string, holder: DataDirLockInfo, ageMs: number): ContextRuntimeError {
  const who = holder.pid > 0 ? `process ${holder.pid}` : 'another process';
  const where = holder.port !== undefined ? `a server on port ${holder.port}` : 'a process with no server port recorded';
  const freshness = `its lock was refreshed ${Math.round(ageMs / 1000)} s ago and is taken over once ${STALE_AFTER_MS / 1000} s old`;
  return new ContextRuntimeError(
    'DATA_DIR_LOCKED',
    `data directory ${path.resolve(dataDir)} is in use by ${who} (${where}; ${freshness}). ` +
      `Use the running server${holder.port !== undefined ? ` at http://localhost:${holder.port}` : ''} or stop ${who} first.`,
    { details: { pid: holder.pid, port: holder.port ?? null, lockPath: lockPathOf(dataDir), startedAt: holder.startedAt, refreshedMsAgo: ageMs } },
  );
}

/** Written whole (temporary file, then rename) so a reader never sees half a record. */
function writeOwnerFile(dataDir: string, info: DataDirLockInfo): void {
  const file = ownerPathOf(dataDir);
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, JSON.stringify(info));
  renameSync(temporary, file);
}

function readOwnerFile(dataDir: string): DataDirLockInfo | undefined {
  try {
    const parsed = JSON.parse(readFileSync(ownerPathOf(dataDir), 'utf8')) as Partial<DataDirLockInfo>;
    if (!Number.isInteger(parsed.pid)) return undefined;
    return Object.freeze({
      pid: parsed.pid as number,
      ...(typeof parsed.port === 'number' ? { port: parsed.port } : {}),
      startedAt: String(parsed.startedAt ?? ''),
      ...(parsed.database === 'postgres' || parsed.database === 'embedded' ? { database: parsed.database } : {}),
    });
  } catch {
    // Missing, or torn by a crash of an older version: the lock's age still says whether anyone holds it.
    return undefined;
  }
}
