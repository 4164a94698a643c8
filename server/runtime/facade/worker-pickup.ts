/**
 * A caller waiting on a queued run (`run()` on a job engine) must not wait forever when no
 * `context-runtime worker` is running. This watches the wait: once the run has sat `queued`, with no
 * node finished, for `pickup_timeout_ms`, it asks the engine whether any worker lives; with none,
 * the run fails with the reason (conditionally: a worker that took it meanwhile wins). With live
 * workers the run merely waits its turn in a busy queue, and the watch starts over.
 */
import type { RunRecord } from '../contracts/run-store';
import type { RuntimePlugins } from './runtime-plugins';

export function noWorkerReason(runId: string, waitedMs: number): string {
  return `no context-runtime worker took run ${runId} within ${waitedMs} ms (execution.pickup_timeout_ms) and none is running: start one with \`context-runtime worker\` on a machine that reaches the database`;
}

export class WorkerPickupWatch {
  private since = performance.now();
  private progress = -1;

  constructor(
    private readonly plugins: RuntimePlugins,
    private readonly timeoutMs: number,
  ) {}

  /** True when the run was failed for want of a worker (re-read it); false while waiting is right. */
  async expired(record: RunRecord): Promise<boolean> {
    const progress = record.nodeOutcomes.size + record.skipped.length;
    if (record.status !== 'queued' || progress !== this.progress) {
      this.progress = progress;
      this.since = performance.now();
      return false;
    }
    const waitedMs = Math.round(performance.now() - this.since);
    if (waitedMs < this.timeoutMs) return false;
    // An engine that cannot tell is treated as having none: the wait has already lasted the timeout.
    const live = (await this.plugins.scheduler.liveWorkers?.()) ?? 0;
    if (live > 0) {
      this.since = performance.now();
      return false;
    }
    return (await this.plugins.runStore.setStatus(record.id, 'failed', { error: noWorkerReason(record.id, waitedMs), pendingNodeId: null, onlyIf: ['queued'] })) !== false;
  }
}
