/**
 * The runtime's background sweeps: orphaned runs (a process that owned them is gone) and the
 * retention policy. Recovery resumes an orphan in this process, or on a job engine hands it back
 * to the queue for a worker (facade/run-recovery.ts, facade/queued-run.ts).
 */
import type { RuntimeConfig } from '../config/config-schema';
import type { RunRecord } from '../contracts/run-store';
import type { RunResult } from '../explain/explain-types';
import { requeueOrphanedRuns, type RequeueOptions } from './queued-run';
import { recoverOrphanedRuns, type RecoveredRun } from './run-recovery';
import type { RunOwnership } from './run-ownership';
import type { RuntimePlugins } from './runtime-plugins';

export interface OrphanSweepsDeps {
  readonly plugins: RuntimePlugins;
  readonly config: RuntimeConfig;
  readonly ownership: RunOwnership;
  /** Runs execute as jobs on an engine, not in this process. */
  readonly queued: boolean;
  /** Resumes one claimed orphan in this process (and lets the learner see its result). */
  readonly resume: (record: RunRecord) => Promise<RunResult>;
  readonly applyRetention: () => Promise<unknown>;
}

const report = (what: string) => (error: unknown) => console.error(`[context-runtime] ${what}: ${error instanceof Error ? error.message : String(error)}`);

export class OrphanSweeps {
  private recovery?: Promise<readonly RecoveredRun[]>;
  private sweepTimer?: NodeJS.Timeout;
  private retentionTimer?: NodeJS.Timeout;
  private lastQueuedScan = 0;

  constructor(private readonly deps: OrphanSweepsDeps) {}

  /**
   * Recovers orphans now and, on a database other processes share, again every orphan_after_ms:
   * a peer may die after this process started. The embedded database has one process: once suffices.
   */
  start(): void {
    const { plugins, config, queued } = this.deps;
    const sweep = () => void this.recoverRuns().catch(report('recovering orphaned runs'));
    sweep();
    // Retention rides on the same start: every process that recovers runs also ages them out
    // (the deletes are idempotent, so two servers sweeping one database is harmless).
    const retention = () => void this.deps.applyRetention().catch(report('applying retention'));
    if (plugins.retention) {
      retention();
      this.retentionTimer = setInterval(retention, config.retention.sweep_interval_minutes * 60_000);
      this.retentionTimer.unref();
    }
    if (plugins.exclusiveRunStore) return;
    // A worker sweeps at each heartbeat: a killed worker's run is handed back once its owner is
    // seen gone (claimAfterMs), not up to a whole orphan_after_ms later again.
    this.sweepTimer = setInterval(sweep, queued ? config.scheduler.heartbeat_ms : config.scheduler.orphan_after_ms);
    this.sweepTimer.unref();
  }

  stop(): void {
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    if (this.retentionTimer) clearInterval(this.retentionTimer);
  }

  /**
   * Claims the runs a process that is gone left `running` and resumes each from its saved node
   * outcomes, or marks it failed with the reason. A call while a sweep is under way shares it; a
   * later call sweeps again (the claim is atomic, so nothing runs twice).
   */
  recoverRuns(): Promise<readonly RecoveredRun[]> {
    const { plugins, config, ownership } = this.deps;
    // On a job engine a worker resumes it: the sweep only hands it back to the queue.
    const sweep = (): Promise<readonly RecoveredRun[]> => this.deps.queued
      ? requeueOrphanedRuns(plugins, ownership, this.requeueOptions()).then((ids) => ids.map((runId) => ({ runId, status: 'queued' as const })))
      : recoverOrphanedRuns(plugins, ownership, { staleAfterMs: config.scheduler.orphan_after_ms, exclusive: plugins.exclusiveRunStore ?? false }, this.deps.resume);
    return (this.recovery ??= sweep().finally(() => (this.recovery = undefined)));
  }

  /**
   * On a job engine: what one sweep does. A run whose owner lost its alive mark (its process died,
   * its session with it) and missed two heartbeats is handed back; bench:workers' kill round,
   * 2026-12-02, waited orphan_after_ms (30 s) plus up to one more sweep interval for each killed
   * worker's runs. Without marks the heartbeat alone speaks, and orphan_after_ms stays the bound.
   * Idle queued runs are looked at once per orphan_after_ms: it reads every queued run.
   */
  private requeueOptions(): RequeueOptions {
    const { heartbeat_ms: heartbeatMs, orphan_after_ms: orphanAfterMs } = this.deps.config.scheduler;
    const claimAfterMs = this.deps.plugins.runStore.markOwnerAlive ? Math.min(orphanAfterMs, 2 * heartbeatMs) : orphanAfterMs;
    if (Date.now() - this.lastQueuedScan < orphanAfterMs) return { claimAfterMs };
    this.lastQueuedScan = Date.now();
    return { claimAfterMs, queuedIdleAfterMs: orphanAfterMs };
  }
}
