/**
 * A required verification unrolls "retry until verified" into attempts (retrieve-retry2 … gate-retry2),
 * so every default plan carries a second copy of its answer path. Drawn whole, that copy doubled the
 * plan's height and pushed the plan that runs out of the first fit at a readable zoom. An attempt that
 * has not run (planned, pending behind its gate, or skipped because the gate passed) is drawn as one
 * node until the reader expands it; an attempt that ran is drawn in full. Pure, so it is tested alone.
 */
import type { LayoutNode } from './graph-layout';
import type { PlanNodeView } from './plan-metrics';

export interface CollapsedAttempt {
  /** The drawn node's id (never a graph node id: graph ids have no "attempt:" prefix). */
  readonly id: string;
  readonly attempt: number;
  readonly nodeIds: readonly string[];
}

export interface CollapsedGraph {
  readonly nodes: readonly LayoutNode[];
  readonly attempts: readonly CollapsedAttempt[];
  /** Graph node ids drawn inside a collapsed attempt. */
  readonly hidden: ReadonlySet<string>;
}

/** verification-gate.ts names an attempt's nodes `<name>-retry<n>`, its retrievers `retrieve-retry<n>-<method>`. */
const ATTEMPT_SUFFIX = /-retry(\d+)(?=-|$)/;
const NOT_RUN: ReadonlySet<PlanNodeView['status']> = new Set(['planned', 'pending', 'skipped']);

/** What the collapse reads of a node's view: its place in the graph and whether it ran. */
export interface AttemptNodeView {
  readonly node: LayoutNode;
  readonly status: PlanNodeView['status'];
}

export const collapsedAttemptId = (attempt: number) => `attempt:${attempt}`;

/** The retry attempt a node belongs to (2, 3, …), or undefined for the first attempt's nodes. */
export function attemptOf(nodeId: string): number | undefined {
  const match = ATTEMPT_SUFFIX.exec(nodeId);
  return match ? Number(match[1]) : undefined;
}

export function collapseRetryAttempts(views: readonly AttemptNodeView[], expanded: ReadonlySet<number>): CollapsedGraph {
  const byAttempt = new Map<number, AttemptNodeView[]>();
  for (const view of views) {
    const attempt = attemptOf(view.node.id);
    if (attempt !== undefined) byAttempt.set(attempt, [...(byAttempt.get(attempt) ?? []), view]);
  }
  const attempts: CollapsedAttempt[] = [...byAttempt]
    .filter(([attempt, members]) => !expanded.has(attempt) && members.every((view) => NOT_RUN.has(view.status)))
    .sort(([a], [b]) => a - b)
    .map(([attempt, members]) => ({ id: collapsedAttemptId(attempt), attempt, nodeIds: members.map((view) => view.node.id) }));
  const drawnAs = new Map<string, string>();
  for (const attempt of attempts) for (const nodeId of attempt.nodeIds) drawnAs.set(nodeId, attempt.id);
  const shown = (id: string) => drawnAs.get(id) ?? id;
  // Edges into and out of a collapsed attempt attach to its one node; edges inside it disappear.
  const inputsOf = (id: string, inputs: readonly string[]) => [...new Set(inputs.map(shown))].filter((input) => input !== id);
  const nodes: LayoutNode[] = views.filter((view) => !drawnAs.has(view.node.id)).map((view) => ({ id: view.node.id, inputs: inputsOf(view.node.id, view.node.inputs) }));
  for (const attempt of attempts) {
    const members = new Set(attempt.nodeIds);
    const inputs = views.filter((view) => members.has(view.node.id)).flatMap((view) => view.node.inputs);
    nodes.push({ id: attempt.id, inputs: inputsOf(attempt.id, inputs) });
  }
  return { nodes, attempts, hidden: new Set(drawnAs.keys()) };
}
