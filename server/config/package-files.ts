/**
 * Finds a file the package ships beside its code (drizzle/ migrations, the demo corpus) from the
 * module that asks, whatever layout the code runs in: a checkout (`db/migrate.ts`, `drizzle/` one
 * level up), the built package (`dist/index.js` bundles every module into one file, so the depth
 * of the asking source file no longer holds), or an install (`node_modules/context-runtime/dist`).
 * Each ancestor of the module's folder is tried, nearest first: the package's own copy wins over
 * anything further out (a consumer's own drizzle/ included). The working directory itself comes
 * last, for bundles (Next's) whose `import.meta.url` is not a file.
 *
 * Plain file checks over computed paths (turbopackIgnore): a bundler must not read these as
 * imports of a folder, and must not trace the project to find them.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * `folder` (a path relative to the package root, e.g. `drizzle`) in the nearest ancestor of
 * `moduleUrl`'s folder that holds `marker` (e.g. `drizzle/meta/_journal.json`), else in the
 * working directory when it holds the marker; undefined when neither does.
 */
export function packageFolder(moduleUrl: string | undefined, folder: string, marker: string): string | undefined {
  const candidates = [...ancestorsOf(moduleUrl), path.resolve(/* turbopackIgnore: true */ process.cwd())];
  const root = candidates.find((directory) => existsSync(path.join(/* turbopackIgnore: true */ directory, marker)));
  return root === undefined ? undefined : path.join(/* turbopackIgnore: true */ root, folder);
}

function ancestorsOf(moduleUrl: string | undefined): string[] {
  let start: string;
  try {
    if (!moduleUrl?.startsWith('file:')) return [];
    start = path.dirname(fileURLToPath(moduleUrl));
  } catch {
    // Not a file URL inside some bundles: the working directory still serves a checkout.
    return [];
  }
  const ancestors = [start];
  while (path.dirname(ancestors[ancestors.length - 1]) !== ancestors[ancestors.length - 1]) ancestors.push(path.dirname(ancestors[ancestors.length - 1]));
  return ancestors;
}
