/**
 * The v0.1 scheduler: Kahn topological waves, a concurrency cap inside each wave, per-node retry
 * with jittered exponential backoff (never of a user error or a policy refusal), timeouts that
 * abort the work, durable approval gates, branch skipping, and compensation (rollback) of
 * completed nodes when a node fails for good. It decides WHEN, never WHAT.
 */
import { ContextRuntimeError } from '../errors';
import { nodeById, type ExecutionGraph, type GraphNode } from '../ir/graph';
import { isRetryable, retryDelayMs, sleepUnlessAborted } from './retry-backoff';
import { SCHEDULER_CONTRACT, type NodeExecutor, type NodeOutcome, type RunCheckpoint, type RunControl, type Schedule, type ScheduleResult, type SchedulerHooks, type SchedulerPlugin } from '../contracts/scheduler';

/** Nodes that exist only to undo others; they run on failure, not in the forward pass. */
function compensationTargets(graph: ExecutionGraph): ReadonlySet<string> {
  return new Set(graph.nodes.flatMap((node) => (node.compensation ? [node.compensation] : [])));
}

export function topologicalWaves(graph: ExecutionGraph): string[][] {
  const excluded = compensationTargets(graph);
  const nodes = graph.nodes.filter((node) => !excluded.has(node.id));
  const remaining = new Map(nodes.map((node) => [node.id, node.inputs.filter((input) => !excluded.has(input)).length]));
  const waves: string[][] = [];
  const placed = new Set<string>();
  while (placed.size < nodes.length) {
    const wave = nodes.filter((node) => !placed.has(node.id) && remaining.get(node.id) === 0).map((node) => node.id);
    if (wave.length === 0) throw new ContextRuntimeError('INVALID_GRAPH', 'execution graph has a cycle; validate it before scheduling');
    for (const id of wave) placed.add(id);
    for (const node of nodes) {
      if (placed.has(node.id)) continue;
      remaining.set(node.id, node.inputs.filter((input) => !excluded.has(input) && !placed.has(input)).length);
    }
    waves.push(wave);
  }
  return waves;
}

/** How long an aborted node may take to wind down (close its connections) before the scheduler moves on without it. */
export const DEFAULT_ABORT_GRACE_MS = 2_000;

/**
 * Runs one attempt under the node's deadline and the run's cancel. Either aborts the node's signal
 * with a typed reason (reaching its model and retriever calls), and the attempt then waits for the
 * aborted work to settle (its connection closed) before it fails: a retry or a fallback never runs
 * beside the call it replaces. An executor that ignores the signal is waited for at most `graceMs`;
 * its late result is dropped either way.
 */
async function runWithTimeout(node: GraphNode, executor: NodeExecutor, inputs: ReadonlyMap<string, unknown>, attempt: number, runSignal: AbortSignal | undefined, graceMs: number, deadlineOf: RunControl['nodeTimeoutMs']): Promise<NodeOutcome> {
  const controller = new AbortController();
  const timeoutMs = node.timeoutMs ?? deadlineOf?.(node);
  const timer = timeoutMs
    ? setTimeout(() => controller.abort(new ContextRuntimeError('TIMEOUT', `node ${node.id} timed out after ${timeoutMs} ms`, { details: { nodeId: node.id } })), timeoutMs)
    : undefined;
  const onCancel = () => controller.abort(new ContextRuntimeError('CONFLICT', `run cancelled while node ${node.id} ran`, { details: { nodeId: node.id } }));
  if (runSignal?.aborted) onCancel();
  else runSignal?.addEventListener('abort', onCancel, { once: true });
  const aborted = new Promise<never>((_, reject) => {
    if (controller.signal.aborted) reject(controller.signal.reason);
    else controller.signal.addEventListener('abort', () => reject(controller.signal.reason), { once: true });
  });
  aborted.catch(() => undefined);
  let execution: Promise<NodeOutcome> | undefined;
  try {
    execution = executor(node, { attempt, inputs, signal: controller.signal });
    return await Promise.race([execution, aborted]);
  } catch (error) {
    if (!controller.signal.aborted) throw error;
    await Promise.race([execution?.catch(() => undefined), new Promise((resolve) => setTimeout(resolve, graceMs).unref?.())]);
    throw controller.signal.reason;
  } finally {
    if (timer) clearTimeout(timer);
    runSignal?.removeEventListener('abort', onCancel);
  }
}

/** Runs tasks with at most `limit` in flight; resolves when all settle. */
async function pool<T>(items: readonly T[], limit: number, task: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) await task(items[next++]);
  });
  await Promise.all(workers);
}

export interface WaveSchedulerOptions {
  /** Draws the backoff jitter (0–1); tests fix it. */
  readonly random?: () => number;
  /** See runWithTimeout. */
  readonly abortGraceMs?: number;
}

export class WaveScheduler implements SchedulerPlugin {
  readonly contract = SCHEDULER_CONTRACT;
  private readonly random: () => number;
  private readonly abortGraceMs: number;

  constructor(options: WaveSchedulerOptions = {}) {
    this.random = options.random ?? Math.random;
    this.abortGraceMs = options.abortGraceMs ?? DEFAULT_ABORT_GRACE_MS;
  }

  schedule(graph: ExecutionGraph, options: { readonly concurrency: number }): Schedule {
    return { waves: topologicalWaves(graph), concurrency: Math.max(1, options.concurrency) };
  }

  async run(graph: ExecutionGraph, schedule: Schedule, executor: NodeExecutor, checkpoint: RunCheckpoint, hooks: SchedulerHooks, control: RunControl = {}): Promise<ScheduleResult> {
    const signal = control.signal;
    const nodes = nodeById(graph);
    const outcomes = new Map(checkpoint.completed);
    const skipped = new Set(checkpoint.skipped);
    const untaken = new Set<string>();
    for (const [id, outcome] of outcomes) markUntaken(nodes.get(id), outcome, untaken);
    const completionOrder = [...outcomes.keys()];

    for (const wave of schedule.waves) {
      if (signal?.aborted) return { status: 'cancelled', outcomes };
      let pendingGate: string | undefined;
      let failure: { nodeId: string; error: string } | undefined;
      let rejectedGate: string | undefined;
      const runnable: GraphNode[] = [];
      for (const id of wave) {
        if (outcomes.has(id) || skipped.has(id)) continue;
        const node = nodes.get(id)!;
        const reason = untaken.has(id) ? 'branch not taken' : node.inputs.length > 0 && node.inputs.every((input) => skipped.has(input)) ? 'all inputs skipped' : undefined;
        if (reason) {
          skipped.add(id);
          await hooks.onNodeSkipped?.(node, reason);
          continue;
        }
        if (node.kind === 'approve') {
          const decision = checkpoint.decisions.get(id);
          if (decision === 'rejected') rejectedGate = id;
          else if (decision === 'approved') {
            const outcome: NodeOutcome = { output: { decision }, actual: { tokens: 0, costUsd: 0, latencySeconds: 0 } };
            outcomes.set(id, outcome);
            completionOrder.push(id);
            await hooks.onNodeDone(node, outcome, 1);
          } else pendingGate = id;
          continue;
        }
        runnable.push(node);
      }
      await pool(runnable, schedule.concurrency, async (node) => {
        const inputs = new Map(node.inputs.filter((input) => outcomes.has(input)).map((input) => [input, outcomes.get(input)!.output]));
        const maxAttempts = Math.max(1, node.retry?.maxAttempts ?? 1);
        for (let attempt = 1; attempt <= maxAttempts && !signal?.aborted; attempt++) {
          hooks.onNodeStart?.(node, attempt);
          try {
            const outcome = await runWithTimeout(node, executor, inputs, attempt, signal, this.abortGraceMs, control.nodeTimeoutMs);
            outcomes.set(node.id, outcome);
            completionOrder.push(node.id);
            markUntaken(node, outcome, untaken);
            await hooks.onNodeDone(node, outcome, attempt);
            return;
          } catch (error) {
            const willRetry = attempt < maxAttempts && !signal?.aborted && isRetryable(error);
            hooks.onNodeFailed?.(node, error, attempt, willRetry);
            if (!willRetry) {
              failure ??= { nodeId: node.id, error: error instanceof Error ? error.message : String(error) };
              return;
            }
            await sleepUnlessAborted(retryDelayMs(attempt, node.retry?.backoffMs ?? 0, this.random), signal);
          }
        }
      });
      // A cancelled run is not compensated as a failure: what it did stays recorded, nothing more runs.
      if (signal?.aborted) return { status: 'cancelled', outcomes };
      if (failure) {
        await this.compensate(completionOrder, nodes, outcomes, executor, hooks, control.nodeTimeoutMs);
        return { status: 'failed', nodeId: failure.nodeId, error: failure.error, outcomes };
      }
      if (rejectedGate) return { status: 'rejected', nodeId: rejectedGate, outcomes };
      if (pendingGate) return { status: 'awaiting_approval', nodeId: pendingGate, outcomes };
    }
    return { status: 'completed', outcomes };
  }

  /** Undo completed nodes in reverse order of completion (saga style). */
  private async compensate(order: readonly string[], nodes: ReadonlyMap<string, GraphNode>, outcomes: Map<string, NodeOutcome>, executor: NodeExecutor, hooks: SchedulerHooks, deadlineOf: RunControl['nodeTimeoutMs']): Promise<void> {
    for (const id of [...order].reverse()) {
      const compensationId = nodes.get(id)?.compensation;
      const compensation = compensationId ? nodes.get(compensationId) : undefined;
      if (!compensation || outcomes.has(compensation.id)) continue;
      const outcome = await runWithTimeout(compensation, executor, new Map([[id, outcomes.get(id)!.output]]), 1, undefined, this.abortGraceMs, deadlineOf);
      outcomes.set(compensation.id, outcome);
      await hooks.onNodeDone(compensation, outcome, 1);
    }
  }
}

function markUntaken(node: GraphNode | undefined, outcome: NodeOutcome, untaken: Set<string>): void {
  if (node?.kind !== 'branch' || !outcome.takenBranch) return;
  for (const target of [...node.whenTrue, ...node.whenFalse]) if (!outcome.takenBranch.includes(target)) untaken.add(target);
}
