/**
 * Runs the console started in this process, by run id, with the progress they reported so far.
 * Starting and following are separate requests: `console.start` (a POST, so a 16,000-character goal
 * fits) starts the run and answers with its id; `console.follow` streams it by id. A stream that
 * reconnects replays what it missed from here, and never starts the goal again.
 */
import type { RunResult } from '../runtime/explain/explain-types';
import type { RunProgressEvent } from '../runtime/facade/run-progress';
import type { RunRequestInput, RuntimePort } from './runtime-port';

export type ConsoleRunEvent = { readonly type: 'progress'; readonly event: RunProgressEvent } | { readonly type: 'result'; readonly result: RunResult };

export interface LiveRun {
  readonly runId: string;
  /** Every event so far, in order; event n (1-based) is `events[n - 1]`. */
  readonly events: readonly ConsoleRunEvent[];
  /** Set when the run failed after it had started (a planning failure rejects `start` instead). */
  readonly error?: unknown;
  readonly settled: boolean;
  /** Resolves at the next event or when the run settles. */
  changed(): Promise<void>;
}

/** A settled run stays replayable this long: long enough for a dropped stream to reconnect. */
const KEEP_SETTLED_MS = 10 * 60_000;

class MutableLiveRun implements LiveRun {
  runId = '';
  events: ConsoleRunEvent[] = [];
  error?: unknown;
  settled = false;
  private waiters: (() => void)[] = [];

  changed(): Promise<void> {
    return this.settled ? Promise.resolve() : new Promise((resolve) => this.waiters.push(resolve));
  }

  push(event: ConsoleRunEvent): void {
    this.events.push(event);
    this.wake();
  }

  settle(error?: unknown): void {
    this.error = error;
    this.settled = true;
    this.wake();
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const resolve of waiters) resolve();
  }
}

// One registry per runtime instance: router tests hand in fresh fakes whose run ids repeat. Held on
// globalThis because each Next.js route bundle has its own module graph: a run started by
// POST /api/v1/runs is followed from another route (/api/v1/runs/:id/events) or the console.
const REGISTRIES_KEY = Symbol.for('context-runtime.live-runs');
const registries: WeakMap<RuntimePort, Map<string, LiveRun>> = ((globalThis as { [REGISTRIES_KEY]?: WeakMap<RuntimePort, Map<string, LiveRun>> })[REGISTRIES_KEY] ??= new WeakMap());

function registryOf(runtime: RuntimePort): Map<string, LiveRun> {
  let registry = registries.get(runtime);
  if (!registry) registries.set(runtime, (registry = new Map()));
  return registry;
}

/**
 * Starts the run and resolves with its id once the runtime has created it (the plan is chosen and
 * the run record written), so a follower can find it. A request the runtime refuses (bad input,
 * no feasible plan) rejects here, before any id exists.
 */
export function startLiveRun(runtime: RuntimePort, request: RunRequestInput): Promise<string> {
  const live = new MutableLiveRun();
  const registry = registryOf(runtime);
  return new Promise<string>((resolve, reject) => {
    const announce = (runId: string) => {
      if (live.runId) return;
      live.runId = runId;
      registry.set(runId, live);
      resolve(runId);
    };
    const forget = () => setTimeout(() => registry.delete(live.runId), KEEP_SETTLED_MS).unref?.();
    runtime
      .run(request, {
        onProgress: (event) => {
          if (event.type === 'run_started') announce(event.runId);
          live.push({ type: 'progress', event });
        },
      })
      .then(
        (result) => {
          announce(result.runId);
          live.push({ type: 'result', result });
          live.settle();
          forget();
        },
        (error: unknown) => {
          if (!live.runId) return reject(error);
          live.settle(error);
          forget();
        },
      );
  });
}

export function liveRun(runtime: RuntimePort, runId: string): LiveRun | undefined {
  return registries.get(runtime)?.get(runId);
}
