import type { ExecutionGraph, GraphNode } from '../ir/graph';

/** Contract version of the Scheduler plugin. */
export const SCHEDULER_CONTRACT = 'scheduler/v1' as const;

/** The physical schedule: when and how wide, never what. */
export interface Schedule {
  /** Topological waves; nodes in one wave have all inputs satisfied by earlier waves. */
  readonly waves: readonly (readonly string[])[];
  readonly concurrency: number;
}

/** Outcome of one node: its output (JSON-serialisable) plus measured actuals. */
export interface NodeOutcome {
  readonly output: unknown;
  /** Same units as the node's estimate (ir/graph.ts NodeEstimate), modelTokens included. */
  readonly actual: { readonly tokens: number; readonly costUsd: number; readonly latencySeconds: number; readonly modelTokens?: number };
  /** For branch nodes: which successor ids are taken; the others are skipped. */
  readonly takenBranch?: readonly string[];
  /**
   * The run's totals once this node finished (execution/run-budget.ts): model cost and tokens over
   * the nodes finished so far (failed attempts' calls included), and execution time since the run
   * started. What EXPLAIN ANALYZE sets against the request's limits.
   */
  readonly budget?: RunSpendSnapshot;
}

export interface RunSpendSnapshot {
  readonly costUsd: number;
  readonly tokens: number;
  readonly elapsedSeconds: number;
}

export interface NodeRunContext {
  readonly attempt: number;
  /** Outputs of the node's inputs, by node id. */
  readonly inputs: ReadonlyMap<string, unknown>;
  readonly signal: AbortSignal;
}

export type NodeExecutor = (node: GraphNode, context: NodeRunContext) => Promise<NodeOutcome>;

/** Durable state the scheduler reads and writes so a paused run resumes after a restart. */
export interface RunCheckpoint {
  readonly completed: ReadonlyMap<string, NodeOutcome>;
  readonly skipped: ReadonlySet<string>;
  /** Approve decisions already taken, by node id. */
  readonly decisions: ReadonlyMap<string, 'approved' | 'rejected'>;
}

export interface SchedulerHooks {
  onNodeStart?(node: GraphNode, attempt: number): void;
  onNodeDone(node: GraphNode, outcome: NodeOutcome, attempts: number): Promise<void>;
  onNodeFailed?(node: GraphNode, error: unknown, attempt: number, willRetry: boolean): void;
  onNodeSkipped?(node: GraphNode, reason: string): Promise<void>;
}

export type ScheduleResult =
  | { readonly status: 'completed'; readonly outcomes: ReadonlyMap<string, NodeOutcome> }
  | { readonly status: 'awaiting_approval'; readonly nodeId: string; readonly outcomes: ReadonlyMap<string, NodeOutcome> }
  | { readonly status: 'rejected'; readonly nodeId: string; readonly outcomes: ReadonlyMap<string, NodeOutcome> }
  | { readonly status: 'failed'; readonly nodeId: string; readonly error: string; readonly outcomes: ReadonlyMap<string, NodeOutcome> }
  | { readonly status: 'cancelled'; readonly outcomes: ReadonlyMap<string, NodeOutcome> };

export interface RunControl {
  /** Aborting it cancels the run: in-flight nodes see their own signal abort, and nothing further starts. */
  readonly signal?: AbortSignal;
  /**
   * The deadline of a node that declares no `timeoutMs` of its own (facade/node-deadline.ts): with
   * it every node kind, a reason node's model calls included, is aborted at a deadline.
   */
  readonly nodeTimeoutMs?: (node: GraphNode) => number | undefined;
}

export interface EnqueueOptions {
  /**
   * The run is under way (its next wave, an approved gate, a run handed back by a dead worker): it
   * is taken before runs not yet started, so started runs finish first instead of every queued run
   * advancing a wave at a time and all finishing together at the end.
   */
  readonly resumed?: boolean;
  /** Does nothing when the run already has a job waiting to be taken (a sweep re-enqueueing a run that may have lost its job). */
  readonly unlessWaiting?: boolean;
}

/** Decides WHEN/WHERE (the planner decided WHAT). */
export interface SchedulerPlugin {
  readonly contract: typeof SCHEDULER_CONTRACT;
  schedule(graph: ExecutionGraph, options: { readonly concurrency: number }): Schedule;
  run(graph: ExecutionGraph, schedule: Schedule, executor: NodeExecutor, checkpoint: RunCheckpoint, hooks: SchedulerHooks, control?: RunControl): Promise<ScheduleResult>;
  /**
   * Present when runs execute elsewhere (a job engine): hands a `queued` run's next wave to a worker,
   * which calls back into the runtime (`ContextRuntime.executeQueuedWave`) and `run`s that one wave.
   * Enqueueing a run twice before a worker takes it yields one job. Absent: runs execute in process.
   */
  enqueue?(runId: string, options?: EnqueueOptions): Promise<void>;
  /**
   * With `enqueue`: how many worker processes are alive to take jobs now (each holds its owner's
   * alive mark while it lives). A caller waiting on a queued run no worker takes fails it with the
   * reason instead of waiting forever.
   */
  liveWorkers?(): Promise<number>;
  /** Releases the engine's connections. */
  close?(): Promise<void>;
}
