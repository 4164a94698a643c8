/**
 * `context-runtime worker [--concurrency N]`: a process that executes queued runs, one wave per
 * job, on any machine that reaches the PostgreSQL server. It also sweeps for runs whose worker died
 * (their heartbeat went stale) and hands them back to the queue. SIGINT/SIGTERM finish the jobs in
 * hand, then close; a worker killed outright leaves its runs to another worker's sweep.
 */
import { resolve } from 'node:path';
import { openRuntime, databaseUrl, defaultConfigPath } from '../bootstrap';
import { startWorkerRunner } from '../adapters/jobs/graphile-worker-runner';
import { DEFAULT_CONFIG_PATH } from '../runtime';
import { loadConfigFile } from '../runtime/config/load-config';
import { ContextRuntimeError } from '../runtime/errors';

export async function runWorker(options: { readonly configPath?: string; readonly concurrency?: number }): Promise<number> {
  const configPath = options.configPath ?? defaultConfigPath();
  // Checked before anything opens: a worker on the embedded database would only load it to say no.
  const config = loadConfigFile(resolve(configPath ?? DEFAULT_CONFIG_PATH), { required: configPath !== undefined });
  const url = databaseUrl(config);
  if (config.execution.engine !== 'graphile_worker' || !url) {
    const missing = config.execution.engine !== 'graphile_worker' ? `execution.engine is ${config.execution.engine}` : 'no DATABASE_URL (or database.url) is set';
    throw new ContextRuntimeError('INVALID_CONFIG', `context-runtime worker executes queued runs on a PostgreSQL server, but ${missing}: set execution.engine: graphile_worker and DATABASE_URL`, { field: 'execution.engine' });
  }
  const runtime = await openRuntime({ configPath, recoverRuns: true });
  try {
    const concurrency = options.concurrency ?? runtime.config.scheduler.concurrency;
    await runtime.announceWorker();
    const runner = await startWorkerRunner({ connectionString: url, concurrency, executeWave: (runId) => runtime.executeQueuedWave(runId) });
    process.stderr.write(`context-runtime worker ${process.pid}: executing queued runs, ${concurrency} at a time\n`);
    const stop = () => void runner.stop().catch((error: unknown) => console.error(`context-runtime worker: stopping: ${error instanceof Error ? error.message : String(error)}`));
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    await runner.promise;
    return 0;
  } finally {
    await runtime.close();
  }
}
