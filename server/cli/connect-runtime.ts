/**
 * Decides where the CLI's runtime lives. With DATABASE_URL every process may connect. With the
 * embedded database, a live server that owns the data directory is used over HTTP — also when its
 * runtime failed to open: it keeps the directory (and may hold it open or retry), so the CLI asks
 * it and reports its answer, and never opens the directory beside it (issue 10: an account created
 * on such a server vanished). A live owner without a port (another CLI) is reported, never shared;
 * with no live owner this process opens the directory itself.
 */
import { TRPCClientError } from '@trpc/client';
import { databaseUrl, defaultConfigPath, embeddedDataDir, openRuntime } from '../bootstrap';
import { loadConfigFile } from '../runtime/config/load-config';
import { ContextRuntimeError } from '../runtime/errors';
import { readServiceToken, serviceTokenPathOf } from '../auth/local-secrets';
import { type DataDirLockInfo, readDataDirLock } from '../services/data-dir-lock';
import { localClient, remoteClient, type RuntimeClient } from './runtime-client';

export async function connectRuntime(configPath?: string): Promise<RuntimeClient> {
  const path = configPath ?? defaultConfigPath();
  const config = loadConfigFile(path ?? 'context-runtime.yaml', { required: configPath !== undefined });
  if (!databaseUrl(config)) {
    const dataDir = embeddedDataDir(config);
    const owner = readDataDirLock(dataDir);
    if (owner?.alive && owner.pid !== process.pid) {
      // The server wrote its service token beside the data directory (0600): reading it proves
      // this CLI runs as the server's OS user, which is what the admin rights it grants assume.
      if (owner.port) return serverClient(owner as DataDirLockInfo & { port: number }, dataDir);
      throw new ContextRuntimeError('DATA_DIR_LOCKED', `${dataDir} is in use by process ${owner.pid} (started ${owner.startedAt}); wait for it to finish or stop it`, { details: { pid: owner.pid } });
    }
  }
  return localClient(await openRuntime({ configPath: path }));
}

/** The owning server over HTTP, with its failures explained in terms of that server rather than "fetch failed". */
function serverClient(owner: DataDirLockInfo & { readonly port: number }, dataDir: string): RuntimeClient {
  const url = `http://127.0.0.1:${owner.port}`;
  const client = remoteClient(url, readServiceToken(dataDir));
  const explained = <T>(call: Promise<T>): Promise<T> => call.catch((error: unknown) => Promise.reject(explainServerError(error, owner, url, dataDir)));
  return {
    via: client.via,
    run: (request) => explained(client.run(request)),
    explain: (request, analyze) => explained(client.explain(request, analyze)),
    simulate: (request) => explained(client.simulate(request)),
    approve: (runId, nodeId, decision, credentials, comment) => explained(client.approve(runId, nodeId, decision, credentials, comment)),
    cancel: (runId) => explained(client.cancel(runId)),
    ingest: (path, source, onProgress) => explained(client.ingest(path, source, onProgress)),
    listRuns: (limit) => explained(client.listRuns(limit)),
    verifyAuditLog: () => explained(client.verifyAuditLog()),
    statistics: () => explained(client.statistics()),
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
