import { readFile } from 'node:fs/promises';
import { invalidInput } from '../runtime/errors';
import type { IngestSkipped } from '../runtime/contracts/store';
import { detectSources } from '../ingest/detect-source';
import { defaultSourceName } from '../ingest/ingest-path';

/**
 * `context-runtime ingest PATH` against a running server (issue 12, finding 2): the CLI reads the
 * files itself, as the user who runs it, and uploads their bytes; the server never reads a path a
 * client names. The same walk as a local ingest picks the files (hidden, vendored and unsupported
 * ones stay behind and are reported), and the server checks each upload again.
 */

export interface LocalUpload {
  readonly source: string;
  readonly files: readonly { readonly path: string; readonly contentBase64: string }[];
  /** Left out on this machine, before the upload. */
  readonly skipped: readonly IngestSkipped[];
}

export async function readLocalUpload(path: string, source: string | undefined): Promise<LocalUpload> {
  const detected = await detectSources(path);
  if (detected.groups.some((group) => group.parser === 'git-history')) {
    throw invalidInput('path', `${path} is a git repository; its history cannot be uploaded to a running server. Stop the server and ingest it locally, or ask an admin to ingest it from a folder under ingest.allowed_roots`);
  }
  const files = await Promise.all(
    detected.groups.flatMap((group) => group.files).map(async (file) => ({ path: file.relativePath, contentBase64: (await readFile(file.path)).toString('base64') })),
  );
  return { source: source ?? defaultSourceName(detected.root, detected.isDirectory), files, skipped: detected.skipped };
}
