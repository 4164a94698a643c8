/**
 * The three ways an ingest reaches the runtime, each with the checks its caller's trust calls for:
 * the in-process CLI reads this machine's files as itself; a remote caller naming a server path
 * must be an admin (the ingester confines it to ingest.allowed_roots); an upload may create a new
 * source as anyone, but a new version of an existing one is an admin's (facade/ingest-request.ts).
 * Each runs under `underDeadline` (ingest.timeout_ms and the caller's signal); the runtime
 * invalidates what planning cached once it returns.
 */
import { ContextRuntimeError, invalidInput } from '../errors';
import type { IngestReport, UploadedFile } from '../contracts/store';
import type { Principal } from '../types';
import { isAdmin, requireAdmin, validateSourceName, validateUpload } from './ingest-request';
import type { RuntimePlugins } from './runtime-plugins';
import { validatePrincipal } from './validate-request';

export type UnderDeadline = <T>(signal: AbortSignal | undefined, work: (signal: AbortSignal) => Promise<T>) => Promise<T>;

export interface LocalIngestOptions {
  readonly source?: string;
  readonly onProgress?: (done: number, total: number) => void;
  readonly signal?: AbortSignal;
}

function pathIngester(plugins: RuntimePlugins, path: unknown, source: unknown) {
  if (!plugins.ingester) throw new ContextRuntimeError('INVALID_CONFIG', 'this runtime was built without an ingester');
  if (typeof path !== 'string' || path.trim() === '') throw invalidInput('path', 'expected a file or folder path');
  validateSourceName(source, false);
  return plugins.ingester;
}

export function ingestLocalPath(plugins: RuntimePlugins, underDeadline: UnderDeadline, path: string, options: LocalIngestOptions): Promise<IngestReport> {
  const ingester = pathIngester(plugins, path, options.source);
  return underDeadline(options.signal, (signal) => ingester(path, { ...options, signal }));
}

export function ingestServerPath(plugins: RuntimePlugins, underDeadline: UnderDeadline, path: string, options: { readonly source?: string; readonly principal: Principal; readonly signal?: AbortSignal }): Promise<IngestReport> {
  requireAdmin(validatePrincipal(options.principal), 'ingesting a path on the server');
  const ingester = pathIngester(plugins, path, options.source);
  return underDeadline(options.signal, (signal) => ingester(path, { source: options.source, confined: true, signal }));
}

export function ingestUploadedFiles(plugins: RuntimePlugins, underDeadline: UnderDeadline, files: readonly UploadedFile[], options: { readonly source: string; readonly principal: Principal; readonly signal?: AbortSignal }): Promise<IngestReport> {
  const principal = validatePrincipal(options.principal);
  if (!plugins.uploadIngester) throw new ContextRuntimeError('INVALID_CONFIG', 'this runtime was built without an upload ingester');
  validateSourceName(options.source, true);
  validateUpload(files);
  // Checked at the ingester's write, not here: a source another upload creates meanwhile counts.
  const beforeWrite = async (names: readonly string[]) => {
    if (isAdmin(principal)) return;
    const existing = new Set((await plugins.store.listSources()).map((source) => source.name));
    const taken = names.filter((name) => existing.has(name));
    if (taken.length > 0) throw new ContextRuntimeError('FORBIDDEN', `source ${taken.join(', ')} already exists; a new version of an existing source requires the admin role (choose another source name)`, { field: 'source' });
  };
  const uploadIngester = plugins.uploadIngester;
  return underDeadline(options.signal, (signal) => uploadIngester(files, { source: options.source, beforeWrite, signal }));
}
