/**
 * This process's claim on the runs it executes: an instance id recorded as each run's owner, a
 * heartbeat that keeps those claims fresh, and one AbortController per run so a cancel reaches the
 * calls in flight. A run whose owner stops beating is an orphan another start recovers (run-recovery.ts).
 * The heartbeat is a timer on this process's event loop, which a CPU-bound node can stall past
 * `orphan_after_ms`; so the owner also holds an alive mark the store keeps outside the loop (on a
 * server, a session lock: adapters/db/owner-alive-lock.ts), and a run whose owner holds it is no orphan.
 */
import { randomUUID } from 'node:crypto';
import type { OwnerAliveMark, RunStorePlugin } from '../contracts/run-store';

export class RunOwnership {
  readonly instanceId = `${process.pid}-${randomUUID()}`;
  private readonly controllers = new Map<string, AbortController>();
  private timer: NodeJS.Timeout | undefined;
  private closed = false;
  /** Taken with the first run, kept for the process's life (one session), let go at close. */
  private aliveMark?: Promise<OwnerAliveMark | undefined>;

  constructor(
    private readonly runStore: RunStorePlugin,
    private readonly heartbeatMs: number,
  ) {}

  /** Registers a run this process now executes; its signal aborts when the run is cancelled. */
  begin(runId: string): AbortSignal {
    const controller = new AbortController();
    this.controllers.set(runId, controller);
    this.startBeating();
    return controller.signal;
  }

  end(runId: string): void {
    this.controllers.delete(runId);
    if (this.controllers.size === 0) this.stopBeating();
  }

  /** Aborts a run executing here; false when this process is not executing it. */
  abort(runId: string, reason: string): boolean {
    const controller = this.controllers.get(runId);
    if (!controller) return false;
    controller.abort(new Error(reason));
    return true;
  }

  /** Stops the heartbeat without touching the runs: a closing process leaves them to be recovered. */
  close(): Promise<void> {
    this.closed = true;
    this.stopBeating();
    const mark = this.aliveMark;
    this.aliveMark = undefined;
    return (mark ?? Promise.resolve(undefined)).then((taken) => taken?.release());
  }

  /** Takes the alive mark now, before any run: a worker is counted alive (liveWorkers) from its start. */
  async markAlive(): Promise<boolean> {
    if (this.closed) return false;
    this.aliveMark ??= this.takeAliveMark();
    return (await this.aliveMark) !== undefined;
  }

  private startBeating(): void {
    if (this.timer || this.closed || !this.runStore.heartbeat) return;
    this.aliveMark ??= this.takeAliveMark();
    this.timer = setInterval(() => void this.beat(), this.heartbeatMs);
    // A heartbeat alone must not keep a finished CLI process alive.
    this.timer.unref();
  }

  private async takeAliveMark(): Promise<OwnerAliveMark | undefined> {
    try {
      return await this.runStore.markOwnerAlive?.(this.instanceId);
    } catch (error) {
      // Without it the heartbeat alone speaks for this process, as on a store that has no marks.
      console.warn(`run owner alive mark: ${error instanceof Error ? error.message : String(error)}`);
      return undefined;
    }
  }

  private refreshing = false;

  private async refreshAliveMark(): Promise<void> {
    if (this.refreshing || !this.aliveMark) return;
    this.refreshing = true;
    try {
      const mark = await this.aliveMark;
      if (mark) await mark.refresh();
      else if (this.runStore.markOwnerAlive && !this.closed) this.aliveMark = this.takeAliveMark();
    } catch {
      // Tried again at the next beat.
    } finally {
      this.refreshing = false;
    }
  }

  /** One heartbeat; a run this process no longer owns (cancelled or claimed elsewhere) stops here too. */
  async beat(): Promise<void> {
    try {
      // A mark lost with its session (the database restarted) is taken again, beside the heartbeat: never in its way.
      void this.refreshAliveMark();
      const lost = (await this.runStore.heartbeat?.(this.instanceId, [...this.controllers.keys()])) ?? [];
      for (const runId of lost) this.abort(runId, 'this process no longer owns the run (cancelled or taken over elsewhere)');
    } catch (error) {
      console.warn(`run heartbeat: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  private stopBeating(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }
}
