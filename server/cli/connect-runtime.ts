/**
 * Decides where the CLI's runtime lives (issue 13, point 4: the CLI never forks the truth). A live
 * server holding the data directory's lock is used over HTTP, whatever database either side is
 * configured with — also when its runtime failed to open: it keeps the directory (and may hold it
 * open or retry), so the CLI asks it and reports its answer. It never runs the work itself under
 * its own config and identity, nor opens the directory beside it (issue 10: an account created on
 * such a server vanished). A live holder without a port (another CLI) is reported, never shared.
 * With no live holder the CLI opens the directory itself, taking the same lock (bootstrap.ts) —
 * unless the last server there kept its data in PostgreSQL and this CLI has no DATABASE_URL: a
 * fresh embedded database beside it would be a second, empty truth.
 */
import { TRPCClientError } from '@trpc/client';
import { databaseUrl, defaultConfigPath, embeddedDataDir, openRuntime } from '../bootstrap';
import { loadConfigFile } from '../runtime/config/load-config';
import { ContextRuntimeError, invalidInput } from '../runtime/errors';
import { readServiceToken, serviceTokenPathOf } from '../auth/local-secrets';
import { type DataDirLockInfo, holdsDataDir, lastDataDirOwner, readDataDirLock } from '../services/data-dir-lock';
import { localClient, remoteClient, type RuntimeClient } from './runtime-client';

/** Where the CLI reaches a server as an API key when no URL is given: the server's default port. */
export const DEFAULT_SERVER_URL = 'http://127.0.0.1:3000';

export interface ApiKeyAccess {
  /** --api-key or CONTEXT_RUNTIME_API_KEY. */
  readonly apiKey?: string;
  /** --url or CONTEXT_RUNTIME_URL. */
  readonly url?: string;
}

/**
 * Where the CLI's work runs, decided without opening anything: a server reached with an API key,
 * the server that owns the data directory (with its service token), or this process. `mcp` uses
 * the decision to bridge stdio to a server's /api/mcp rather than to its tRPC endpoint.
 */
export type RuntimeLocation =
  | { readonly kind: 'api-key'; readonly url: string; readonly apiKey: string }
  | {
      readonly kind: 'server';
      readonly url: string;
      readonly owner: DataDirLockInfo & { readonly port: number };
      readonly dataDir: string;
      /** Undefined until the server has written it: the server then refuses, and the refusal is explained. */
      readonly serviceToken: string | undefined;
      readonly notice?: string;
    }
  | { readonly kind: 'local'; readonly configPath: string | undefined };

export function locateRuntime(configPath?: string, access: ApiKeyAccess = {}): RuntimeLocation {
  // With a key the CLI is a remote client like any other: the key's role and sources decide, and no data directory is touched.
  if (access.apiKey) return { kind: 'api-key', url: serverBaseUrl(access.url ?? DEFAULT_SERVER_URL), apiKey: access.apiKey };
  const path = configPath ?? defaultConfigPath();
  const config = loadConfigFile(path ?? 'context-runtime.yaml', { required: configPath !== undefined });
  const url = databaseUrl(config);
  const dataDir = embeddedDataDir(config);
  const owner = readDataDirLock(dataDir);
  if (owner?.alive && !holdsDataDir(dataDir)) {
    // The server wrote its service token beside the data directory (0600): reading it proves
    // this CLI runs as the server's OS user, which is what the admin rights it grants assume.
    if (owner.port) return serverLocation(owner as DataDirLockInfo & { port: number }, dataDir, url);
    if (!url) {
      throw new ContextRuntimeError('DATA_DIR_LOCKED', `${dataDir} is in use by process ${owner.pid} (started ${owner.startedAt}, no server port recorded); wait for it to finish or stop it`, { details: { pid: owner.pid } });
    }
  }
  if (!url && lastDataDirOwner(dataDir)?.database === 'postgres') {
    const last = lastDataDirOwner(dataDir)!;
    throw new ContextRuntimeError(
      'DATA_DIR_LOCKED',
      `the server that last used ${dataDir} (process ${last.pid}, started ${last.startedAt}) keeps its data in PostgreSQL, and this CLI has no DATABASE_URL: ` +
        `it would create a separate, empty embedded database. Set DATABASE_URL (or database.url) as the server does, or start the server and the CLI works through it`,
      { details: { pid: last.pid, database: 'postgres' } },
    );
  }
  return { kind: 'local', configPath: path };
}

export async function connectRuntime(configPath?: string, access: ApiKeyAccess = {}): Promise<RuntimeClient> {
  const location = locateRuntime(configPath, access);
  switch (location.kind) {
    case 'api-key':
      return apiKeyClient(location.apiKey, location.url);
    case 'server':
      return explainedClient(remoteClient(location.url, location.serviceToken), (error) => explainServerError(error, location.owner, location.url, location.dataDir), location.notice);
    case 'local':
      return localClient(await openRuntime({ configPath: location.configPath }));
  }
}

/** --url checked and without its trailing slash. */
function serverBaseUrl(url: string): string {
  if (!URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol)) throw invalidInput('--url', `expected an http(s) URL, got ${JSON.stringify(url)}`);
  return url.replace(/\/+$/, '');
}

/** The owning server, with a notice when its database is not the one this CLI's config names. */
function serverLocation(owner: DataDirLockInfo & { readonly port: number }, dataDir: string, cliDatabaseUrl: string | undefined): RuntimeLocation {
  const url = `http://127.0.0.1:${owner.port}`;
  // Said, not silently bridged: the user's DATABASE_URL (or its absence) is not what answers.
  const notice =
    owner.database === 'postgres' && !cliDatabaseUrl
      ? `the server at ${url} keeps its data in PostgreSQL and this CLI has no DATABASE_URL: working through the server, not on an embedded database of its own`
      : owner.database === 'embedded' && cliDatabaseUrl
        ? `the server at ${url} owns the embedded database in ${dataDir}: working through it, not on this CLI's DATABASE_URL`
        : undefined;
  return { kind: 'server', url, owner, dataDir, serviceToken: readServiceToken(dataDir), ...(notice ? { notice } : {}) };
}

/** A server reached with an API key: a refused key or an unreachable server is said in those terms. */
function apiKeyClient(apiKey: string, base: string): RuntimeClient {
  return explainedClient(remoteClient(base, apiKey), (error) => {
    if (!(error instanceof TRPCClientError)) return error;
    const code = (error.data as { code?: string } | undefined)?.code;
    if (code === 'UNAUTHORIZED') return invalidInput('--api-key', `the server at ${base} refused the key: it is unknown or revoked (an admin creates keys under Admin → API keys)`);
    if (error.data === undefined || error.data === null) return new ContextRuntimeError('INTERNAL', `the server at ${base} did not answer (${error.message}); check --url or CONTEXT_RUNTIME_URL`);
    return error;
  });
}

function explainedClient(client: RuntimeClient, explain: (error: unknown) => unknown, notice?: string): RuntimeClient {
  const explained = <T>(call: Promise<T>): Promise<T> => call.catch((error: unknown) => Promise.reject(explain(error)));
  return {
    via: client.via,
    ...(notice ? { notice } : {}),
    run: (request) => explained(client.run(request)),
    explain: (request, analyze) => explained(client.explain(request, analyze)),
    simulate: (request) => explained(client.simulate(request)),
    approve: (runId, nodeId, decision, credentials, comment) => explained(client.approve(runId, nodeId, decision, credentials, comment)),
    cancel: (runId) => explained(client.cancel(runId)),
    ingest: (path, source, onProgress, signal) => explained(client.ingest(path, source, onProgress, signal)),
    listRuns: (limit) => explained(client.listRuns(limit)),
    verifyAuditLog: () => explained(client.verifyAuditLog()),
    statistics: () => explained(client.statistics()),
    createApiKey: (input) => explained(client.createApiKey(input)),
    applyRetention: () => explained(client.applyRetention()),
    close: () => client.close(),
  };
}

function explainServerError(error: unknown, owner: DataDirLockInfo, url: string, dataDir: string): unknown {
  if (!(error instanceof TRPCClientError)) return error;
  const code = (error.data as { code?: string } | undefined)?.code;
  if (code === 'UNAUTHORIZED' && readServiceToken(dataDir) === undefined) {
    return new ContextRuntimeError(
      'DATA_DIR_LOCKED',
      `the server at ${url} (process ${owner.pid}) owns ${dataDir} but has not written the CLI's service token (${serviceTokenPathOf(dataDir)}) yet: wait until it has started, or restart it`,
      { details: { pid: owner.pid, port: owner.port ?? null } },
    );
  }
  if (code === 'UNAUTHORIZED') {
    return new ContextRuntimeError(
      'DATA_DIR_LOCKED',
      `the server at ${url} (process ${owner.pid}) owns ${dataDir} and refused the CLI's service token (${serviceTokenPathOf(dataDir)}): run the CLI as the user who started the server, or restart the server`,
      { details: { pid: owner.pid, port: owner.port ?? null } },
    );
  }
  if (error.data === undefined || error.data === null) {
    // No tRPC answer at all: connection refused, or not the server the lock names.
    return new ContextRuntimeError(
      'DATA_DIR_LOCKED',
      `${dataDir} belongs to the server process ${owner.pid}, which did not answer at ${url} (${error.message}). Wait until it has started, or stop process ${owner.pid}; the CLI does not open a data directory a running server owns`,
      { details: { pid: owner.pid, port: owner.port ?? null } },
    );
  }
  if (code === 'INTERNAL_SERVER_ERROR') {
    // The server hides internals on 5xx; point at where they are (its log), e.g. a runtime that cannot open.
    return new ContextRuntimeError('INTERNAL', `the server at ${url} (process ${owner.pid}, which owns ${dataDir}) failed: ${error.message}`, { details: { pid: owner.pid } });
  }
  return error;
}
