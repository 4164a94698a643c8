/**
 * Secrets the server keeps on its own disk so `npm install && npm start` needs no configuration:
 * the NextAuth signing secret (generated once, reused across restarts so sessions survive) and
 * the local service token the CLI presents (new on every start). Both sit beside the embedded data
 * directory, like its lock file (`<dir>.lock`), outside PGlite's own files, readable by the owner only.
 */
import { randomBytes } from 'node:crypto';
import { lstatSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ContextRuntimeError } from '../runtime/errors';

export const secretPathOf = (dataDir: string): string => `${path.resolve(dataDir)}.nextauth-secret`;
export const serviceTokenPathOf = (dataDir: string): string => `${path.resolve(dataDir)}.service-token`;

/**
 * A new owner-only file. Whatever was at `file` is removed first and the write refuses to follow a
 * link or reuse a file ("wx"): a link planted there would otherwise receive the secret.
 */
function writePrivate(file: string, content: string): void {
  mkdirSync(path.dirname(file), { recursive: true });
  rmSync(file, { force: true });
  writeFileSync(file, content, { mode: 0o600, flag: 'wx' });
}

/**
 * Why a stored secret must not be reused (issue 12, finding 8), or undefined when it may be: it must
 * be a plain file of this process's user that nobody else can read or write. A secret someone else
 * could read lets them sign sessions; one someone else wrote is a secret they know.
 */
export function storedSecretProblem(file: string): { readonly problem: string; readonly replace: boolean } | undefined {
  const info = lstatSync(file);
  if (info.isSymbolicLink() || !info.isFile()) return { problem: 'is not a regular file (a symbolic link?)', replace: false };
  const uid = process.getuid?.();
  if (uid !== undefined && info.uid !== uid) return { problem: `belongs to user id ${info.uid}, not to the server's user (${uid})`, replace: false };
  if ((info.mode & 0o077) !== 0) return { problem: `is readable or writable by other users (mode ${(info.mode & 0o777).toString(8)})`, replace: true };
  return undefined;
}

/** The persisted NextAuth secret for `dataDir`, created (48 random bytes) on first use. */
export function persistedAuthSecret(dataDir: string): string {
  const file = secretPathOf(dataDir);
  const exists = (() => {
    try {
      lstatSync(file);
      return true;
    } catch {
      return false;
    }
  })();
  if (exists) {
    const doubt = storedSecretProblem(file);
    if (doubt && !doubt.replace) {
      throw new ContextRuntimeError('INVALID_CONFIG', `${file} ${doubt.problem}; remove it (the server creates a new one, and signed-in users sign in again) or set NEXTAUTH_SECRET`, { field: 'NEXTAUTH_SECRET' });
    }
    if (doubt) console.warn(`[context-runtime] ${file} ${doubt.problem}: replacing it with a new secret; signed-in users sign in again`);
    const stored = doubt ? '' : readFileSync(file, 'utf8').trim();
    if (stored.length >= 32) return stored;
  }
  const secret = randomBytes(48).toString('base64url');
  writePrivate(file, secret);
  return secret;
}

/** A fresh token for this server run; the previous run's token stops working. */
export function issueServiceToken(dataDir: string): string {
  const token = randomBytes(32).toString('base64url');
  writePrivate(serviceTokenPathOf(dataDir), token);
  return token;
}

/** The CLI's side: the token the server owning `dataDir` wrote, if this user may read it. */
export function readServiceToken(dataDir: string): string | undefined {
  try {
    const token = readFileSync(serviceTokenPathOf(dataDir), 'utf8').trim();
    return token.length > 0 ? token : undefined;
  } catch {
    return undefined;
  }
}
