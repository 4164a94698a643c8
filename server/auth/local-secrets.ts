/**
 * Secrets the server keeps on its own disk so `npm install && npm start` needs no configuration:
 * the NextAuth signing secret (generated once, reused across restarts so sessions survive) and
 * the local service token the CLI presents (new on every start). Both sit beside the embedded data
 * directory, like its lock file (`<dir>.lock`), outside PGlite's own files, readable by the owner only.
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export const secretPathOf = (dataDir: string): string => `${path.resolve(dataDir)}.nextauth-secret`;
export const serviceTokenPathOf = (dataDir: string): string => `${path.resolve(dataDir)}.service-token`;

function writePrivate(file: string, content: string): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, content, { mode: 0o600 });
  // mode applies only when the file is created; an older file keeps its bits unless reset.
  chmodSync(file, 0o600);
}

/** The persisted NextAuth secret for `dataDir`, created (48 random bytes) on first use. */
export function persistedAuthSecret(dataDir: string): string {
  const file = secretPathOf(dataDir);
  if (existsSync(file)) {
    const stored = readFileSync(file, 'utf8').trim();
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
