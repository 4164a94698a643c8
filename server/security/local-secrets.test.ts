/**
 * Issue 12, finding 8 — "the secret file is reused without checking owner and mode". A signing
 * secret others can read lets them forge sessions; one others wrote is a secret they already know.
 */
import { chmodSync, chownSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { issueServiceToken, persistedAuthSecret, secretPathOf, serviceTokenPathOf } from '../auth/local-secrets';

const PLANTED = 'planted-secret-known-to-someone-else-0123456789';
let root: string;
let dataDir: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'security-secrets-'));
  dataDir = join(root, 'pglite');
});
afterEach(() => {
  vi.restoreAllMocks();
  rmSync(root, { recursive: true, force: true });
});

describe('the persisted signing secret', () => {
  it('is reused when it is the owner’s alone', () => {
    const first = persistedAuthSecret(dataDir);
    expect(statSync(secretPathOf(dataDir)).mode & 0o777).toBe(0o600);
    expect(persistedAuthSecret(dataDir)).toBe(first);
  });

  it('is replaced, not reused, when other users can read it', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    writeFileSync(secretPathOf(dataDir), PLANTED);
    chmodSync(secretPathOf(dataDir), 0o644);
    const secret = persistedAuthSecret(dataDir);
    expect(secret).not.toBe(PLANTED);
    expect(statSync(secretPathOf(dataDir)).mode & 0o777).toBe(0o600);
    expect(warn).toHaveBeenCalledWith(expect.stringMatching(/readable or writable by other users \(mode 644\)/));
  });

  it('is refused when it is a symbolic link', () => {
    const elsewhere = join(root, 'elsewhere');
    writeFileSync(elsewhere, PLANTED, { mode: 0o600 });
    symlinkSync(elsewhere, secretPathOf(dataDir));
    expect(() => persistedAuthSecret(dataDir)).toThrow(/not a regular file/);
  });

  // Changing a file's owner needs root; as any other user this case cannot be set up.
  it.runIf(process.getuid?.() === 0)('is refused when another user owns it', () => {
    writeFileSync(secretPathOf(dataDir), PLANTED, { mode: 0o600 });
    chownSync(secretPathOf(dataDir), 65534, 65534);
    expect(() => persistedAuthSecret(dataDir)).toThrow(/belongs to user id 65534/);
  });
});

describe('the service token', () => {
  it('is never written through a link planted where it goes', () => {
    const target = join(root, 'attacker-readable');
    writeFileSync(target, '', { mode: 0o644 });
    symlinkSync(target, serviceTokenPathOf(dataDir));
    const token = issueServiceToken(dataDir);
    expect(readFileSync(target, 'utf8')).toBe('');
    expect(readFileSync(serviceTokenPathOf(dataDir), 'utf8')).toBe(token);
    expect(statSync(serviceTokenPathOf(dataDir)).mode & 0o777).toBe(0o600);
  });
});
