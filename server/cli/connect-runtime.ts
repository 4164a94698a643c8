/**
 * Decides where the CLI's runtime lives. With DATABASE_URL every process may connect. With the
 * embedded database, a live server that owns the data directory is used over HTTP; a live owner
 * without a port (another CLI) is reported, never shared; otherwise this process opens it.
 */
import { databaseUrl, defaultConfigPath, embeddedDataDir, openRuntime } from '../bootstrap';
import { loadConfigFile } from '../runtime/config/load-config';
import { ContextRuntimeError } from '../runtime/errors';
import { readServiceToken } from '../auth/local-secrets';
import { readDataDirLock } from '../services/data-dir-lock';
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
      if (owner.port) return remoteClient(`http://127.0.0.1:${owner.port}`, readServiceToken(dataDir));
      throw new ContextRuntimeError('DATA_DIR_LOCKED', `${dataDir} is in use by process ${owner.pid} (started ${owner.startedAt}); wait for it to finish or stop it`, { details: { pid: owner.pid } });
    }
  }
  return localClient(await openRuntime({ configPath: path }));
}
