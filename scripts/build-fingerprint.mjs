/**
 * Whether `.next` was built from the sources as they are now. `npm start` used to rebuild on
 * every start (about 50 s here, issue 10); now it rebuilds only when this fingerprint differs.
 *
 * The fingerprint is SHA-256 over every file git would commit (tracked, plus untracked files that
 * are not ignored: a new component counts) and its content, with package-lock.json among them, so
 * an edit, a new file, a deletion or a dependency change each force a build. Plain .mjs, not .ts:
 * it runs before anything is compiled, and node starts it faster than tsx.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** Inside `.next`, so deleting the build deletes its fingerprint. */
export const fingerprintPathOf = (root = projectRoot) => path.join(root, '.next', 'context-runtime-source-fingerprint');

/** The fingerprint, or undefined when git cannot list the files (then every start builds). */
export function sourceFingerprint(root = projectRoot) {
  let listing;
  try {
    listing = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 64 * 1024 * 1024 });
  } catch {
    return undefined;
  }
  const files = [...new Set(listing.split('\0').filter(Boolean))].sort();
  const hash = createHash('sha256');
  for (const file of files) {
    hash.update(`${file}\0`);
    const absolute = path.join(root, file);
    // A tracked file deleted from the working tree is listed but unreadable: that is a change too.
    hash.update(existsSync(absolute) ? readFileSync(absolute) : '\0deleted\0');
    hash.update('\0');
  }
  return hash.digest('hex');
}

/** Why a build is needed, or undefined when `.next` matches the sources. */
export function staleReason(fingerprint, root = projectRoot) {
  if (!existsSync(path.join(root, '.next', 'BUILD_ID'))) return 'no build yet (.next is missing)';
  if (fingerprint === undefined) return 'cannot fingerprint the sources (git is not available)';
  if (!existsSync(fingerprintPathOf(root))) return 'the build was not made by npm run build / npm start';
  if (readFileSync(fingerprintPathOf(root), 'utf8').trim() !== fingerprint) return 'the sources changed since the last build';
  return undefined;
}

/** Marks `.next` as built from the sources as they are now. */
export function recordFingerprint(fingerprint, root = projectRoot) {
  if (fingerprint !== undefined) writeFileSync(fingerprintPathOf(root), `${fingerprint}\n`);
}

/**
 * `next build`, then records the fingerprint of the sources as the build left them (next build may
 * itself rewrite tsconfig.json; taken before, that would force a build on every start). Returns
 * next build's exit code.
 */
export function buildAndRecord() {
  const nextBin = path.join(projectRoot, 'node_modules', 'next', 'dist', 'bin', 'next');
  const result = spawnSync(process.execPath, [nextBin, 'build'], { cwd: projectRoot, stdio: 'inherit' });
  const code = result.status ?? 1;
  if (code === 0) recordFingerprint(sourceFingerprint());
  return code;
}
