import { lstat, realpath } from 'node:fs/promises';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { ContextRuntimeError, invalidInput } from '../runtime/errors';

/**
 * Where a server-path ingest may read (issue 12, finding 2): only below a configured
 * `ingest.allowed_roots` folder, judged on the real path so a symbolic link inside a root cannot
 * point out of it, never through a root that is itself a link (whoever can swap the link moves the
 * root), and never into a hidden entry (`.git`, `.ssh`, `.env`). The messages name the path the
 * caller gave and the rule it broke; they never say whether a path outside the roots exists.
 */

export const SERVER_PATH_INGEST_DISABLED =
  'server-path ingest is disabled: an admin lists the folders it may read under ingest.allowed_roots in the config; otherwise upload the files (Knowledge page, or `context-runtime ingest PATH` against a running server)';

const inside = (root: string, path: string): boolean => {
  const rest = relative(root, path);
  return rest === '' || (!rest.startsWith('..') && !isAbsolute(rest));
};

const hiddenPart = (root: string, path: string): string | undefined =>
  relative(root, path)
    .split(sep)
    .find((part) => part.startsWith('.') && part !== '');

/** The real path of one allowed root, refused when it is a symbolic link or not a folder. */
async function realRoot(root: string): Promise<string> {
  const absolute = resolve(root);
  const info = await lstat(absolute).catch(() => null);
  if (!info) throw new ContextRuntimeError('INVALID_CONFIG', `ingest.allowed_roots: ${root} does not exist`, { field: 'ingest.allowed_roots' });
  if (info.isSymbolicLink()) throw new ContextRuntimeError('INVALID_CONFIG', `ingest.allowed_roots: ${root} is a symbolic link; list the folder it points to instead`, { field: 'ingest.allowed_roots' });
  if (!info.isDirectory()) throw new ContextRuntimeError('INVALID_CONFIG', `ingest.allowed_roots: ${root} is not a folder`, { field: 'ingest.allowed_roots' });
  return realpath(absolute);
}

/** The real path to ingest, or an INVALID_INPUT error naming `path` and the rule it broke. */
export async function confineIngestPath(path: string, allowedRoots: readonly string[]): Promise<string> {
  if (allowedRoots.length === 0) throw invalidInput('path', SERVER_PATH_INGEST_DISABLED);
  if (!isAbsolute(path)) throw invalidInput('path', `${path} is not an absolute path; server-path ingest reads only below ingest.allowed_roots`);
  const roots = await Promise.all(allowedRoots.map(realRoot));
  const requested = resolve(path);
  // Judged on the lexical path first, so a path outside every root is refused before the disk is touched.
  const lexicalRoot = roots.find((root) => inside(root, requested)) ?? allowedRoots.map((root) => resolve(root)).find((root) => inside(root, requested));
  const outside = () => invalidInput('path', `${path} is outside the folders server-path ingest may read (ingest.allowed_roots)`);
  if (!lexicalRoot) throw outside();
  const lexicalHidden = hiddenPart(lexicalRoot, requested);
  if (lexicalHidden) throw invalidInput('path', `${path} goes through the hidden entry "${lexicalHidden}"; hidden files and folders are never ingested`);
  const real = await realpath(requested).catch(() => undefined);
  if (real === undefined) throw invalidInput('path', `${path} does not exist`);
  const realRootOf = roots.find((root) => inside(root, real));
  // A link inside a root that points out of every root is the escape this guard exists for.
  if (!realRootOf) throw invalidInput('path', `${path} leads outside ingest.allowed_roots through a symbolic link`);
  const realHidden = hiddenPart(realRootOf, real);
  if (realHidden) throw invalidInput('path', `${path} leads to the hidden entry "${realHidden}" through a symbolic link; hidden files and folders are never ingested`);
  return real;
}
