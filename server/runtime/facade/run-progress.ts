/**
 * Live progress of a run, node by node, for callers that show it while it happens (the console
 * streams it over SSE). Plain JSON events; the run never waits on a listener, and a listener that
 * throws is ignored: progress is a view of the run, not part of it.
 */
import { performance } from 'node:perf_hooks';
import { typedOutput } from '../ir/node-outputs';
import type { NodeOutcome, SchedulerHooks } from '../contracts/scheduler';
import type { ExecutionGraph, GraphNode, NodeEstimate, NodeKind } from '../ir/graph';

export interface ProgressNode {
  readonly nodeId: string;
  readonly kind: NodeKind;
  /** Method, strategy or model tier: "bm25 · k=20", "single_shot on local". */
  readonly detail: string;
}

interface NodeEventBase extends ProgressNode {
  readonly runId: string;
  /** Since the run (or its resumption) started; monotonic clock. */
  readonly elapsedMs: number;
}

export type RunProgressEvent =
  | { readonly type: 'run_started'; readonly runId: string; readonly planHash: string; readonly nodes: readonly ProgressNode[] }
  | (NodeEventBase & { readonly type: 'node_started'; readonly attempt: number })
  | (NodeEventBase & { readonly type: 'node_finished'; readonly attempts: number; readonly actual: NodeEstimate; readonly models: readonly string[] })
  | (NodeEventBase & { readonly type: 'node_skipped'; readonly reason: string })
  | (NodeEventBase & { readonly type: 'node_failed'; readonly attempt: number; readonly willRetry: boolean; readonly error: string });

export type RunProgressListener = (event: RunProgressEvent) => void;

export interface RunOptions {
  /** Called synchronously for each event; keep it cheap (e.g. push to a queue). */
  readonly onProgress?: RunProgressListener;
}

export function describeNode(node: GraphNode): string {
  switch (node.kind) {
    case 'retrieve':
      return `${node.method} · k=${node.k}${node.sourceKinds === 'all' ? '' : ` · ${node.sourceKinds.join('+')}`}`;
    case 'fuse':
      return `${node.strategy} · k=${node.k}`;
    case 'rerank':
      return `${node.method} · top ${node.topN}`;
    case 'compress':
    case 'verify':
      return node.method;
    case 'assemble':
      return `${node.tokenBudget} token budget · top ${node.finalK}`;
    case 'reason':
      return `${node.strategy} on ${node.tier}`;
    case 'approve':
      return node.reason;
    case 'branch':
      return node.condition;
    case 'merge':
      return 'merge';
  }
}

function modelsOf(node: GraphNode, outcome: NodeOutcome): readonly string[] {
  const typed = typedOutput(node, outcome.output);
  if (typed.kind !== 'reason') return [];
  return [...new Set((typed.output?.modelCalls ?? []).map((call) => call.modelId))];
}

/**
 * Wraps scheduler hooks so every node event also reaches the listener, after the wrapped hook
 * (a "finished" event means the outcome is already durable).
 */
export function withProgress(runId: string, graph: ExecutionGraph, planHash: string, hooks: SchedulerHooks, listener: RunProgressListener | undefined): SchedulerHooks {
  if (!listener) return hooks;
  const startedAt = performance.now();
  const emit = (event: RunProgressEvent) => {
    try {
      listener(event);
    } catch {
      // A broken viewer must not fail the run it watches.
    }
  };
  const base = (node: GraphNode): NodeEventBase => ({ runId, nodeId: node.id, kind: node.kind, detail: describeNode(node), elapsedMs: Math.round(performance.now() - startedAt) });
  emit({ type: 'run_started', runId, planHash, nodes: graph.nodes.map((node) => ({ nodeId: node.id, kind: node.kind, detail: describeNode(node) })) });
  return {
    onNodeStart: (node, attempt) => {
      hooks.onNodeStart?.(node, attempt);
      emit({ ...base(node), type: 'node_started', attempt });
    },
    onNodeDone: async (node, outcome, attempts) => {
      await hooks.onNodeDone(node, outcome, attempts);
      emit({ ...base(node), type: 'node_finished', attempts, actual: { ...outcome.actual }, models: modelsOf(node, outcome) });
    },
    onNodeFailed: (node, error, attempt, willRetry) => {
      hooks.onNodeFailed?.(node, error, attempt, willRetry);
      emit({ ...base(node), type: 'node_failed', attempt, willRetry, error: error instanceof Error ? error.message : String(error) });
    },
    onNodeSkipped: async (node, reason) => {
      await hooks.onNodeSkipped?.(node, reason);
      emit({ ...base(node), type: 'node_skipped', reason });
    },
  };
}
