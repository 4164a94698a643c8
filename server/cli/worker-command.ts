/**
 * `context-runtime worker [--concurrency N]`: a process that executes queued runs, one wave per
 * job, on any machine that reaches the PostgreSQL server. It also sweeps for runs whose worker died
 * (their heartbeat went stale) and hands them back to the queue. SIGINT/SIGTERM finish the jobs in
 * hand, then close; a worker killed outright leaves its runs to another worker's sweep.
 */
import { openRuntime, databaseUrl } from '../bootstrap';
import { startWorkerRunner } from '../adapters/jobs/graphile-worker-runner';
import { ContextRuntimeError } from '../runtime/errors';

export async function runWorker(options: { readonly configPath?: string; readonly concurrency?: number }): Promise<number> {
  const runtime = await openRuntime({ configPath: options.configPath, recoverRuns: true });
  try {
    const url = databaseUrl(runtime.config);
    if (runtime.config.execution.engine !== 'graphile_worker' || !url) {
      throw new ContextRuntimeError('INVALID_CONFIG', 'context-runtime worker executes queued runs: set execution.engine: graphile_worker in the config and DATABASE_URL (or database.url)', { field: 'execution.engine' });
    }
    const concurrency = options.concurrency ?? runtime.config.scheduler.concurrency;
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
