/**
 * An exclusive lock held for a process's lifetime, judged alive by age rather than by PID (issue 13,
 * point 4: a restarted container reuses PIDs, even the server's own, so a recorded PID proves
 * nothing). proper-lockfile holds it: an mkdir (atomic on every local file system) whose mtime the
 * holder refreshes every REFRESH_MS; a holder that stops refreshing for STALE_AFTER_MS is dead or
 * frozen. proper-lockfile's own stale takeover (stat, rmdir, mkdir) lets two starters that both saw
 * the stale lock both win, so it is disabled (stale = NEVER_MS) and the takeover here runs under a
 * second, short-lived mkdir mutex: of two starters exactly one removes the stale lock and creates
 * its own; the other finds a fresh lock and is refused.
 */
import { mkdirSync, rmSync, statSync, type Stats } from 'node:fs';
import path from 'node:path';
import lockfile from 'proper-lockfile';

/**
 * A lock not refreshed for this long is taken over. 20 s: five missed refreshes, so an event loop
 * blocked for seconds (a 9,000-file ingest stalled requests for 10.9 s, issue 13) does not lose the
 * lock, while a crashed server's restart waits at most this long.
 */
export const STALE_AFTER_MS = 20_000;
const REFRESH_MS = 4_000;
/** The takeover mutex is held for a stat and an rmdir; one this old belongs to a crashed starter. */
const TAKEOVER_STALE_MS = 10_000;
/** Keeps proper-lockfile from ever removing a lock itself (and from calling a slow holder compromised). */
const NEVER_MS = 100 * 365 * 24 * 3_600_000;

export interface HeldDirectoryLock {
  readonly lockPath: string;
  /** Removes the lock directory; idempotent. */
  release(): void;
}

/** Why a lock was refused: its holder refreshed it `ageMs` ago, or another starter is taking it over. */
export class DirectoryLockRefused extends Error {
  constructor(
    readonly lockPath: string,
    readonly ageMs: number | undefined,
    readonly takeoverInProgress: boolean,
  ) {
    super(takeoverInProgress ? `another process is taking over ${lockPath}` : `${lockPath} is held (refreshed ${Math.round((ageMs ?? 0) / 1000)} s ago)`);
  }
}

/** How long ago the lock at `lockPath` was refreshed; undefined when there is none. */
export function lockAgeMs(lockPath: string): number | undefined {
  const stats = statOrUndefined(lockPath);
  return stats ? Math.max(0, Date.now() - stats.mtimeMs) : undefined;
}

/**
 * Takes the lock or throws DirectoryLockRefused. `onLost` runs if the lock is later removed or
 * replaced under this holder (another process judged it dead): it must stop using what it guards.
 */
export function acquireDirectoryLock(lockPath: string, onLost: (error: Error) => void): HeldDirectoryLock {
  mkdirSync(path.dirname(lockPath), { recursive: true });
  const first = takeFresh(lockPath, onLost);
  if (first) return first;
  const observed = statOrUndefined(lockPath);
  // Released between our mkdir and stat: one more plain attempt (no takeover, nothing to remove).
  if (!observed) return takeFresh(lockPath, onLost) ?? refuse(lockPath);
  if (Date.now() - observed.mtimeMs < STALE_AFTER_MS) refuse(lockPath, observed);
  return takeOverStaleLock(lockPath, observed, onLost);
}

/**
 * The takeover of a lock judged stale from `observed`, under the takeover mutex. Removes the lock
 * only if it is still the one judged (same inode, still stale): a starter that looked just before
 * another took the lock over must not remove the newcomer's fresh lock — that is how two win.
 */
export function takeOverStaleLock(lockPath: string, observed: Stats, onLost: (error: Error) => void): HeldDirectoryLock {
  return withTakeoverMutex(lockPath, () => {
    const now = statOrUndefined(lockPath);
    if (now && (now.ino !== observed.ino || Date.now() - now.mtimeMs < STALE_AFTER_MS)) refuse(lockPath, now);
    // A directory (a dead holder's) or a file (the JSON lock of earlier versions).
    if (now) rmSync(lockPath, { recursive: true, force: true });
    return takeFresh(lockPath, onLost) ?? refuse(lockPath);
  });
}

/** One mkdir; undefined when the lock exists (proper-lockfile never removes it: see NEVER_MS). */
function takeFresh(lockPath: string, onLost: (error: Error) => void): HeldDirectoryLock | undefined {
  let release: () => void;
  try {
    // `file` only keys proper-lockfile's table of held locks; lockfilePath is what gets created.
    release = lockfile.lockSync(lockPath, { lockfilePath: lockPath, realpath: false, stale: NEVER_MS, update: REFRESH_MS, onCompromised: onLost });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ELOCKED') return undefined;
    throw error;
  }
  let released = false;
  return {
    lockPath,
    release() {
      if (released) return;
      released = true;
      try {
        release();
      } catch (error) {
        // Already compromised (removed under us): nothing of ours is left to remove.
        if ((error as NodeJS.ErrnoException).code !== 'ERELEASED') throw error;
      }
    },
  };
}

function withTakeoverMutex<T>(lockPath: string, work: () => T): T {
  const mutex = `${lockPath}-takeover`;
  if (!enterMutex(mutex)) throw new DirectoryLockRefused(lockPath, undefined, true);
  try {
    return work();
  } finally {
    rmSync(mutex, { recursive: true, force: true });
  }
}

function enterMutex(mutex: string): boolean {
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      mkdirSync(mutex);
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const stats = statOrUndefined(mutex);
    if (stats && Date.now() - stats.mtimeMs < TAKEOVER_STALE_MS) return false;
    // Left by a starter that crashed mid-takeover (a window of a stat and an rmdir).
    rmSync(mutex, { recursive: true, force: true });
  }
  return false;
}

function refuse(lockPath: string, stats?: Stats): never {
  throw new DirectoryLockRefused(lockPath, stats ? Math.max(0, Date.now() - stats.mtimeMs) : undefined, false);
}

function statOrUndefined(file: string): Stats | undefined {
  try {
    return statSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}
