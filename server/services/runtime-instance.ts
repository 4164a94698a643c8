/**
 * One runtime per process. The promise lives on globalThis because Next.js dev HMR re-evaluates
 * modules and each route handler bundle gets its own module graph; a module-level variable would
 * open a second PGlite on the same data directory, which the runtime refuses (DATA_DIR_LOCKED).
 */
import 'server-only';
import type { RuntimePort } from '../api/runtime-port';
import { databaseUrl, defaultConfigPath, embeddedDataDir, openRuntime } from '../bootstrap';
import { serverEnv } from '../config/env';
import { loadConfigFile } from '../runtime/config/load-config';
import { isContextRuntimeError } from '../runtime/errors';
import { claimDataDirForProcess } from './data-dir-lock';
import { setDataDirRefusal } from './data-dir-refusal';

const INSTANCE_KEY = Symbol.for('context-runtime.instance');

type RuntimeHolder = { [INSTANCE_KEY]?: Promise<RuntimePort> };

export function getRuntime(): Promise<RuntimePort> {
  const holder = globalThis as RuntimeHolder;
  const existing = holder[INSTANCE_KEY];
  if (existing) return existing;
  const port = serverEnv().port;
  const opening: Promise<RuntimePort> = claimServerDataDir(port)
    .then(() => openRuntime({ port, recoverRuns: true }))
    .catch((error: unknown) => {
      // A failed open (e.g. a lock still held by a dying process) must not poison every later request.
      if (holder[INSTANCE_KEY] === opening) delete holder[INSTANCE_KEY];
      throw error;
    });
  holder[INSTANCE_KEY] = opening;
  return opening;
}

/**
 * The server owns its data directory from its first open attempt until it exits, whether or not
 * the runtime opened: the CLI then reaches this server over HTTP (and gets the server's own error)
 * instead of opening the database this process may still hold or retry. With DATABASE_URL too:
 * the directory holds the server's local secrets (the CLI's service token), which one server
 * writes, and the CLI finds a Postgres-backed server there rather than opening PGlite beside it.
 * Refused, the process records why (data-dir-refusal.ts: every route answers 503) and opens nothing.
 */
export async function claimServerDataDir(port: number = serverEnv().port): Promise<void> {
  const configPath = defaultConfigPath();
  const config = loadConfigFile(configPath ?? 'context-runtime.yaml', { required: false });
  try {
    claimDataDirForProcess(embeddedDataDir(config), { port, database: databaseUrl(config) ? 'postgres' : 'embedded' });
  } catch (error) {
    setDataDirRefusal(publicReason(error));
    throw error;
  }
  setDataDirRefusal(undefined);
}

/** What an anonymous visitor of the refused server is told: who holds the directory, not where it is. */
function publicReason(error: unknown): string {
  if (!isContextRuntimeError(error) || error.code !== 'DATA_DIR_LOCKED') return 'this server could not take the lock on its data directory (see its log)';
  const details = error.details as { pid?: number; port?: number | null };
  const holder = details.pid ? `process ${details.pid}${details.port ? `, a server on port ${details.port}` : ''}` : 'another process';
  return `another Context Runtime process (${holder}) owns this server's data directory; use that one, or stop it and this server takes over`;
}
