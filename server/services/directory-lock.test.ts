import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { acquireDirectoryLock, DirectoryLockRefused, type HeldDirectoryLock, STALE_AFTER_MS, takeOverStaleLock } from './directory-lock';

const root = mkdtempSync(path.join(tmpdir(), 'cr-directory-lock-'));
const held: HeldDirectoryLock[] = [];
const noLoss = () => {
  throw new Error('lock lost');
};

afterAll(() => {
  for (const lock of held) lock.release();
  rmSync(root, { recursive: true, force: true });
});

const backdate = (file: string, ageMs: number) => {
  const then = new Date(Date.now() - ageMs);
  utimesSync(file, then, then);
};

function refusal(work: () => unknown): DirectoryLockRefused {
  try {
    work();
  } catch (error) {
    if (error instanceof DirectoryLockRefused) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

/**
 * The interleaving that let two starters both win with a plain stat-rmdir-mkdir takeover: both
 * judge the same dead lock stale, the first replaces it, then the second acts on what it saw.
 */
describe('stale lock takeover', () => {
  it('a starter that judged the lock stale before another took it over is refused, and the winner keeps its lock', () => {
    const lockPath = path.join(root, 'a.lock');
    mkdirSync(lockPath);
    backdate(lockPath, STALE_AFTER_MS + 5_000);
    const judgedBySecond = statSync(lockPath);
    const first = acquireDirectoryLock(lockPath, noLoss);
    held.push(first);
    const refused = refusal(() => takeOverStaleLock(lockPath, judgedBySecond, noLoss));
    expect(refused.takeoverInProgress).toBe(false);
    expect(refused.ageMs).toBeLessThan(1_000);
    // Still the first starter's lock: it would see any replacement as a lost lock.
    expect(existsSync(lockPath)).toBe(true);
    expect(() => first.release()).not.toThrow();
    expect(existsSync(lockPath)).toBe(false);
  });

  it('a starter is refused while another holds the takeover mutex', () => {
    const lockPath = path.join(root, 'b.lock');
    mkdirSync(lockPath);
    backdate(lockPath, STALE_AFTER_MS + 5_000);
    mkdirSync(`${lockPath}-takeover`);
    expect(refusal(() => acquireDirectoryLock(lockPath, noLoss)).takeoverInProgress).toBe(true);
    expect(existsSync(lockPath)).toBe(true);
    rmSync(`${lockPath}-takeover`, { recursive: true });
  });

  it('a takeover mutex left by a starter that crashed mid-takeover does not block later starters', () => {
    const lockPath = path.join(root, 'c.lock');
    mkdirSync(lockPath);
    backdate(lockPath, STALE_AFTER_MS + 5_000);
    mkdirSync(`${lockPath}-takeover`);
    backdate(`${lockPath}-takeover`, 60_000);
    held.push(acquireDirectoryLock(lockPath, noLoss));
    expect(existsSync(`${lockPath}-takeover`)).toBe(false);
  });

  it('a fresh lock is refused with its age, and nothing is removed', () => {
    const lockPath = path.join(root, 'd.lock');
    mkdirSync(lockPath);
    backdate(lockPath, 3_000);
    const refused = refusal(() => acquireDirectoryLock(lockPath, noLoss));
    expect(refused.ageMs).toBeGreaterThanOrEqual(2_900);
    expect(refused.ageMs).toBeLessThan(STALE_AFTER_MS);
    expect(existsSync(lockPath)).toBe(true);
  });
});
