/**
 * Finds an installed package's entry file by Node's own rule for bare names (each ancestor's
 * `node_modules/<name>`, then `main`), done with plain file reads.
 *
 * Why not `createRequire(import.meta.url).resolve(name)`: the production bundle (Next/Turbopack)
 * rewrites that call at build time and returns a module number, not a path, so a fresh clone's
 * server never found the word vectors and could not open (issue 10). File reads over computed
 * paths are something a bundler cannot rewrite (turbopackIgnore: these are run-time lookups, not
 * project files for the build's tracer).
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Absolute path of `name`'s main file, or undefined when no ancestor of `from` has it installed. */
export function installedPackageEntry(name: string, from: readonly string[] = defaultSearchRoots()): string | undefined {
  for (const start of from) {
    for (let directory = path.resolve(/* turbopackIgnore: true */ start); ; directory = path.dirname(directory)) {
      const entry = entryIn(path.join(directory, 'node_modules', name));
      if (entry) return entry;
      if (path.dirname(directory) === directory) break;
    }
  }
  return undefined;
}

/** This file's folder (node_modules beside the sources, or `.next/server/…` in a build) and the working directory. */
function defaultSearchRoots(): string[] {
  const roots: string[] = [];
  try {
    const here = typeof import.meta.url === 'string' && import.meta.url.startsWith('file:') ? fileURLToPath(import.meta.url) : undefined;
    if (here) roots.push(path.dirname(here));
  } catch {
    // Not a file URL in some bundles: the working directory below still finds the project's packages.
  }
  roots.push(process.cwd());
  return roots;
}

function entryIn(packageDirectory: string): string | undefined {
  const manifestPath = path.join(packageDirectory, 'package.json');
  if (!existsSync(/* turbopackIgnore: true */ manifestPath)) return undefined;
  let main = 'index.js';
  try {
    const manifest = JSON.parse(readFileSync(/* turbopackIgnore: true */ manifestPath, 'utf8')) as { main?: unknown };
    if (typeof manifest.main === 'string' && manifest.main.length > 0) main = manifest.main;
  } catch {
    return undefined;
  }
  const entry = path.resolve(/* turbopackIgnore: true */ packageDirectory, main);
  return existsSync(/* turbopackIgnore: true */ entry) && statSync(/* turbopackIgnore: true */ entry).isFile() ? entry : undefined;
}
