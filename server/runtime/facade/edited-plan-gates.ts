/**
 * The gates of an edited plan (issue 12, finding 1). The scheduler takes a node named as another's
 * `compensation` out of the forward pass (it runs only to undo a failure), so `{compensation:
 * "approve"}` on any node once let a high-risk run complete with no approver. An edit may reshape
 * retrieval, but the answer path and its gates stay where the planner put them:
 *   - no node may name an approve, verify, reason or assemble node — or any node they wait for —
 *     as its compensation: that would silently drop it from the run;
 *   - approve, verify, reason and assemble nodes carry no compensation and no loop of their own;
 *   - every approval gate of the plan is kept with its reason and approver role, and still waits
 *     for every node the planner made it wait for (a gate moved before the answer approves nothing).
 */
import { ContextRuntimeError } from '../errors';
import type { ExecutionGraph, GraphNode } from '../ir/graph';

/** Nodes whose place in the run is the policy's: the answer path and its checks. */
const PROTECTED_KINDS: ReadonlySet<GraphNode['kind']> = new Set(['approve', 'verify', 'reason', 'assemble']);

const fail = (field: string, message: string) => new ContextRuntimeError('INVALID_GRAPH', message, { field });

/** Every node `ids` wait for, directly or through other nodes, plus `ids` themselves. */
function upstreamOf(byId: ReadonlyMap<string, GraphNode>, ids: readonly string[]): ReadonlySet<string> {
  const reached = new Set<string>();
  const pending = [...ids];
  while (pending.length > 0) {
    const id = pending.pop()!;
    if (reached.has(id)) continue;
    reached.add(id);
    pending.push(...(byId.get(id)?.inputs ?? []));
  }
  return reached;
}

export function checkGates(graph: ExecutionGraph, planned: ExecutionGraph): void {
  const byId = new Map(graph.nodes.map((node) => [node.id, node]));
  const guarded = upstreamOf(
    byId,
    graph.nodes.filter((node) => PROTECTED_KINDS.has(node.kind)).map((node) => node.id),
  );
  for (const node of graph.nodes) {
    const field = `graph.nodes.${node.id}`;
    if (PROTECTED_KINDS.has(node.kind)) {
      if (node.compensation !== undefined) throw fail(`${field}.compensation`, `node ${node.id}: ${node.kind} nodes take no compensation in an edited plan`);
      if (node.loop !== undefined) throw fail(`${field}.loop`, `node ${node.id}: ${node.kind} nodes take no loop in an edited plan`);
    }
    const target = node.compensation === undefined ? undefined : byId.get(node.compensation);
    if (target && guarded.has(target.id)) {
      throw fail(`${field}.compensation`, `node ${node.id}: compensation "${target.id}" (${target.kind}) is on the answer path or before a gate; a compensation node runs only on failure, so naming it would skip it`);
    }
  }
  for (const gate of planned.nodes) {
    if (gate.kind !== 'approve') continue;
    const field = `graph.nodes.${gate.id}`;
    const kept = byId.get(gate.id);
    if (kept?.kind !== 'approve' || kept.reason !== gate.reason) throw fail(field, `the plan requires human approval (node ${gate.id}); an edit may not remove it`);
    if (kept.approverRole !== gate.approverRole) throw fail(`${field}.approverRole`, `node ${gate.id}: the plan's gate is decided by the ${gate.approverRole} role; an edit may not change that`);
    const missing = gate.inputs.filter((input) => !kept.inputs.includes(input));
    if (missing.length > 0) throw fail(`${field}.inputs`, `node ${gate.id}: the gate waits for ${gate.inputs.join(', ')} in the plan; an edit may not move it before ${missing.join(', ')}`);
  }
}
