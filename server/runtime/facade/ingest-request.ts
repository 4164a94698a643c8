import { ContextRuntimeError, invalidInput } from '../errors';
import type { UploadedFile } from '../contracts/store';
import type { Principal } from '../types';

/**
 * The rules an ingest request meets before any file is read (issue 12, finding 2). Server-path
 * ingest reads the server's own disk, so only an admin may ask for it (and the ingester confines it
 * to ingest.allowed_roots); everyone else uploads. Writing a new version of a source that already
 * exists replaces what other people's answers cite, so that too is an admin's call.
 */

/** Per upload: the whole request travels as one tRPC body, so it is bounded here and by the router. */
export const MAX_UPLOAD_BYTES = 8 * 1024 * 1024;
export const MAX_UPLOAD_FILES = 500;
const MAX_UPLOAD_PATH = 300;
export const SOURCE_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
const SOURCE_NAME_RULE = 'expected 1–64 letters, digits, ".", "_" or "-", starting with a letter or digit';

export const isAdmin = (principal: Principal): boolean => principal.roles.includes('admin');

export function requireAdmin(principal: Principal, what: string): void {
  if (!isAdmin(principal)) throw new ContextRuntimeError('FORBIDDEN', `${what} requires the admin role`);
}

export function validateSourceName(source: unknown, required: boolean): void {
  if (source === undefined && !required) return;
  if (typeof source !== 'string' || !SOURCE_NAME_PATTERN.test(source)) throw invalidInput('source', SOURCE_NAME_RULE);
}

/** Relative posix paths only, no "..", no hidden part: the path becomes a chunk uri a reader sees. */
function uploadPathProblem(path: string): string | undefined {
  if (path === '' || path.length > MAX_UPLOAD_PATH) return `expected a file path of 1–${MAX_UPLOAD_PATH} characters`;
  if (path.startsWith('/') || /^[A-Za-z]:/.test(path) || path.includes('\\') || path.includes('\0')) return 'expected a relative path with "/" between folders';
  const parts = path.split('/');
  if (parts.some((part) => part === '' || part === '.' || part === '..')) return 'expected no empty, "." or ".." parts';
  if (parts.some((part) => part.startsWith('.'))) return 'hidden files and folders are never ingested';
  return undefined;
}

export function validateUpload(files: readonly UploadedFile[]): void {
  if (!Array.isArray(files) || files.length === 0) throw invalidInput('files', 'expected at least one file');
  if (files.length > MAX_UPLOAD_FILES) throw invalidInput('files', `expected at most ${MAX_UPLOAD_FILES} files per upload, got ${files.length}; upload a narrower folder`);
  let total = 0;
  const seen = new Set<string>();
  files.forEach((file, index) => {
    const problem = typeof file?.path === 'string' ? uploadPathProblem(file.path) : 'expected a file path';
    // The index and the path the caller sent: never the file's content.
    if (problem) throw invalidInput(`files.${index}.path`, problem);
    if (seen.has(file.path)) throw invalidInput(`files.${index}.path`, `${file.path} appears twice in the upload`);
    seen.add(file.path);
    if (!(file.content instanceof Uint8Array)) throw invalidInput(`files.${index}.content`, `expected the bytes of ${file.path}`);
    total += file.content.byteLength;
  });
  if (total > MAX_UPLOAD_BYTES) throw invalidInput('files', `the upload holds ${(total / 1024 / 1024).toFixed(1)} MiB; at most ${MAX_UPLOAD_BYTES / 1024 / 1024} MiB per upload`);
}
