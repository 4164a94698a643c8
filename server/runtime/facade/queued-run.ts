/**
 * Runs a job engine executes (execution.engine graphile_worker): the process that planned a run
 * waits on it by reading the database, the only place its state is (the worker executing it may be
 * on another machine), and a sweep hands runs whose worker died back to the queue.
 */
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type { RunRecord, RunStatus } from '../contracts/run-store';
import type { RuntimeConfig } from '../config/config-schema';
import { ContextRuntimeError, isContextRuntimeError } from '../errors';
import type { RunResult } from '../explain/explain-types';
import { continueRun, toRunResult, type StoredPlan } from './execute-run';
import type { RunOwnership } from './run-ownership';
import { describeNode, type RunProgressEvent, type RunProgressListener } from './run-progress';
import type { RuntimePlugins } from './runtime-plugins';
import { WorkerPickupWatch } from './worker-pickup';

/** Statuses a worker may still change without anyone deciding anything. */
const IN_FLIGHT: readonly RunStatus[] = ['queued', 'running'];

export interface AwaitOptions {
  readonly pollMs: number;
  /** See WorkerPickupWatch: absent, the wait has no end while the run stays queued. */
  readonly pickupTimeoutMs?: number;
  readonly onProgress?: RunProgressListener;
}

/**
 * Resolves once the run leaves `queued`/`running` (it ended, or waits at an approval gate). Progress
 * events are derived from the node outcomes saved so far, so they describe work done in any process:
 * a node is reported finished once its outcome is durable, as the in-process run reports it.
 */
export async function awaitQueuedRun(plugins: RuntimePlugins, runId: string, options: AwaitOptions): Promise<RunResult> {
  const reported = new Set<string>();
  const startedAt = performance.now();
  const pickup = options.pickupTimeoutMs === undefined ? undefined : new WorkerPickupWatch(plugins, options.pickupTimeoutMs);
  for (let first = true; ; first = false) {
    const record = await plugins.runStore.loadRun(runId);
    if (!record) throw new ContextRuntimeError('NOT_FOUND', `run ${runId} does not exist`, { field: 'runId' });
    const { explain } = record.plan as StoredPlan;
    if (options.onProgress) reportProgress(record, first, reported, Math.round(performance.now() - startedAt), options.onProgress);
    if (!IN_FLIGHT.includes(record.status)) return toRunResult(record, explain, explain.graph);
    // Failed for want of a worker: the next read returns it, with the reason.
    if (pickup && (await pickup.expired(record))) continue;
    await sleep(options.pollMs);
  }
}

function reportProgress(record: RunRecord, first: boolean, reported: Set<string>, elapsedMs: number, listener: RunProgressListener): void {
  const { explain } = record.plan as StoredPlan;
  const nodes = new Map(explain.graph.nodes.map((node) => [node.id, node]));
  const emit = (event: RunProgressEvent) => {
    try {
      listener(event);
    } catch {
      // A broken viewer must not fail the wait, as in run-progress.ts.
    }
  };
  if (first) emit({ type: 'run_started', runId: record.id, planHash: explain.planHash, nodes: explain.graph.nodes.map((node) => ({ nodeId: node.id, kind: node.kind, detail: describeNode(node) })) });
  for (const [nodeId, outcome] of record.nodeOutcomes) {
    const node = nodes.get(nodeId);
    if (!node || reported.has(nodeId)) continue;
    reported.add(nodeId);
    emit({ type: 'node_finished', runId: record.id, nodeId, kind: node.kind, detail: describeNode(node), elapsedMs, attempts: 1, actual: { ...outcome.actual }, models: [] });
  }
  for (const nodeId of record.skipped) {
    const node = nodes.get(nodeId);
    if (!node || reported.has(nodeId)) continue;
    reported.add(nodeId);
    emit({ type: 'node_skipped', runId: record.id, nodeId, kind: node.kind, detail: describeNode(node), elapsedMs, reason: 'skipped' });
  }
}

export interface RequeueOptions {
  /** A running run whose owner has not beaten for this long (and holds no alive mark) is handed back. */
  readonly claimAfterMs: number;
  /** Queued runs idle this long get their job again when none is waiting; absent, this sweep leaves them. */
  readonly queuedIdleAfterMs?: number;
}

/**
 * Hands back to the queue the runs whose worker stopped beating mid-wave (claimed atomically, so
 * two sweepers never both take one), and enqueues again the runs left `queued` longer than
 * `queuedIdleAfterMs` with no job waiting (a process that died between writing `queued` and
 * enqueueing, or after taking the job and before claiming the run). Returns the ids handed back.
 */
export async function requeueOrphanedRuns(plugins: RuntimePlugins, ownership: RunOwnership, options: RequeueOptions): Promise<readonly string[]> {
  const store = plugins.runStore;
  const enqueue = plugins.scheduler.enqueue;
  if (!store.claimOrphans || !enqueue) return [];
  const requeued: string[] = [];
  for (const runId of await store.claimOrphans(ownership.instanceId, options.claimAfterMs)) {
    // Nodes whose outcomes were saved are not executed again: the next wave job passes over them.
    if ((await store.setStatus(runId, 'queued', { pendingNodeId: null, onlyIf: ['running'] })) === false) continue;
    await enqueue.call(plugins.scheduler, runId, { resumed: true });
    // Said aloud: a live worker that stalls past claimAfterMs having lost its alive mark loses its run the same way, and its in-flight calls are then made twice.
    console.warn(`run ${runId}: its worker stopped beating for ${options.claimAfterMs} ms; handed back to the queue`);
    requeued.push(runId);
  }
  if (options.queuedIdleAfterMs === undefined) return requeued;
  const idleBefore = Date.now() - options.queuedIdleAfterMs;
  for (const run of await store.listRuns({ limit: 1000, status: 'queued' })) {
    if (Date.parse(run.updatedAt ?? run.createdAt) < idleBefore) {
      // Not re-added over a waiting job: that would only move it to the back of the queue.
      await enqueue.call(plugins.scheduler, run.id, { resumed: true, unlessWaiting: true });
      requeued.push(run.id);
    }
  }
  return requeued;
}

/**
 * A worker's job: claims the queued run (atomically: a second job for the same run, or a cancel,
 * finds it no longer `queued` and does nothing) and executes its next wave, which enqueues the one
 * after. Undefined when there was nothing to do.
 */
export async function executeQueuedWave(plugins: RuntimePlugins, config: RuntimeConfig, ownership: RunOwnership, runId: string): Promise<RunResult | undefined> {
  const claimed = await plugins.runStore.setStatus(runId, 'running', { owner: ownership.instanceId, onlyIf: ['queued'] }).catch((error: unknown) => {
    // A job whose run was deleted has nothing to execute; retrying it would not change that.
    if (isContextRuntimeError(error) && error.code === 'NOT_FOUND') return false;
    throw error;
  });
  if (claimed === false) return undefined;
  const record = await plugins.runStore.loadRun(runId);
  if (!record) return undefined;
  return continueRun(plugins, config, record, { ownership, oneWave: true });
}
