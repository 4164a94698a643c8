/**
 * The SchedulerPlugin on graphile-worker 0.16 (PostgreSQL: jobs are rows taken with
 * `FOR UPDATE SKIP LOCKED`, and LISTEN/NOTIFY wakes idle workers, so a job starts within
 * milliseconds without polling). The engine has no DAGs: the runtime enqueues a run one wave at a
 * time (facade/queued-run.ts), and within a wave this scheduler runs the nodes as the in-process
 * WaveScheduler does, in whichever `context-runtime worker` process took the job.
 */
import { Logger, makeWorkerUtils, type WorkerUtils } from 'graphile-worker';
import {
  SCHEDULER_CONTRACT,
  type EnqueueOptions,
  type NodeExecutor,
  type RunCheckpoint,
  type RunControl,
  type Schedule,
  type ScheduleResult,
  type SchedulerHooks,
  type SchedulerPlugin,
} from '../../runtime/contracts/scheduler';
import type { ExecutionGraph } from '../../runtime/ir/graph';
import { WaveScheduler } from '../../runtime/scheduler/wave-scheduler';
import { OWNER_LOCK_CLASS } from '../db/owner-alive-lock';

/** Workers alive on this database: each holds its owner's alive mark (adapters/db/owner-alive-lock.ts) for its lifetime. */
const LIVE_WORKERS = `select count(*)::int as live from pg_locks where locktype = 'advisory' and granted and objsubid = 2
  and classid = $1::int4::oid and database = (select oid from pg_database where datname = current_database())`;

/** A job with this key that no worker holds: it will be taken. */
const WAITING_JOB = 'select 1 from graphile_worker.jobs where key = $1 and locked_at is null';

/** A run under way goes before runs not started (EnqueueOptions.resumed). */
const RESUMED_PRIORITY = -1;

/** The one task: execute the next wave of the run named in the payload. */
export const RUN_WAVE_TASK = 'context_runtime_run_wave';

/**
 * The engine retries a job whose handler threw (a worker that lost the database mid-claim). A job
 * whose worker died is not retried by the engine until its lock expires (4 h): the runtime's orphan
 * sweep hands such a run back sooner, by its heartbeat.
 */
const JOB_MAX_ATTEMPTS = 5;

/** Warnings and errors only: the engine logs every job at info level. */
export const quietLogger = new Logger((scope) => (level, message) => {
  if (level === 'error' || level === 'warning') console.warn(`[graphile-worker${scope.workerId ? ` ${scope.workerId}` : ''}] ${message}`);
});

export class GraphileScheduler implements SchedulerPlugin {
  readonly contract = SCHEDULER_CONTRACT;
  private readonly waves = new WaveScheduler();
  private utils?: Promise<WorkerUtils>;

  /** `migrationUrl`: a role allowed to create the engine's schema (the application role may not be). */
  constructor(
    private readonly connectionString: string,
    private readonly migrationUrl: string = connectionString,
  ) {}

  schedule(graph: ExecutionGraph, options: { readonly concurrency: number }): Schedule {
    return this.waves.schedule(graph, options);
  }

  run(graph: ExecutionGraph, schedule: Schedule, executor: NodeExecutor, checkpoint: RunCheckpoint, hooks: SchedulerHooks, control?: RunControl): Promise<ScheduleResult> {
    return this.waves.run(graph, schedule, executor, checkpoint, hooks, control);
  }

  /**
   * The job key is the run: a run enqueued again before a worker takes it keeps one job. When the
   * key's job is locked (taken by a worker, maybe one that died), the engine clears its key and adds
   * a new one; the run's atomic claim (queued → running) lets only one of them execute.
   */
  async enqueue(runId: string, options: EnqueueOptions = {}): Promise<void> {
    const utils = await this.open();
    const jobKey = `run:${runId}`;
    if (options.unlessWaiting) {
      const waiting = await utils.withPgClient(async (client) => (await client.query(WAITING_JOB, [jobKey])).rows.length > 0);
      if (waiting) return;
    }
    // Lower runs first (graphile-worker orders by priority, then run_at).
    await utils.addJob(RUN_WAVE_TASK, { runId }, { jobKey, maxAttempts: JOB_MAX_ATTEMPTS, priority: options.resumed ? RESUMED_PRIORITY : 0 });
  }

  async liveWorkers(): Promise<number> {
    const utils = await this.open();
    return utils.withPgClient(async (client) => {
      const { rows } = await client.query<{ live: number }>(LIVE_WORKERS, [OWNER_LOCK_CLASS]);
      return rows[0]?.live ?? 0;
    });
  }

  /** Installs or upgrades the engine's schema (`graphile_worker`); the server does it at start. */
  async migrate(): Promise<void> {
    const utils = await makeWorkerUtils({ connectionString: this.migrationUrl, logger: quietLogger });
    try {
      await utils.migrate();
    } finally {
      await utils.release();
    }
  }

  async close(): Promise<void> {
    const utils = this.utils;
    this.utils = undefined;
    if (utils) await (await utils).release();
  }

  private open(): Promise<WorkerUtils> {
    return (this.utils ??= makeWorkerUtils({ connectionString: this.connectionString, logger: quietLogger, maxPoolSize: 2 }));
  }
}
