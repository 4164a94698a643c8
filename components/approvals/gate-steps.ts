/**
 * The plan around a gate folded into steps: runs of the same kind and state become one step, so a
 * 200-node fan-out reads as "retrieve ×190 · done" instead of 190 chips.
 */
import type { AnalyzedNode } from '@/server/runtime/explain/explain-types';
import type { GraphNode } from '@/server/runtime/ir/graph';

export interface GateStep {
  readonly kind: string;
  readonly ids: readonly string[];
  readonly state: 'done' | 'gate' | 'after' | 'other';
}

export function foldSteps(nodes: readonly GraphNode[], analyzed: readonly AnalyzedNode[], gateId: string, after: readonly string[]): GateStep[] {
  const status = new Map(analyzed.map((node) => [node.nodeId, node.status]));
  const afterSet = new Set(after);
  const steps: GateStep[] = [];
  for (const node of nodes) {
    const state: GateStep['state'] = node.id === gateId ? 'gate' : afterSet.has(node.id) ? 'after' : status.get(node.id) === 'done' ? 'done' : 'other';
    const previous = steps[steps.length - 1];
    if (previous && previous.kind === node.kind && previous.state === state && state !== 'gate') steps[steps.length - 1] = { ...previous, ids: [...previous.ids, node.id] };
    else steps.push({ kind: node.kind, ids: [node.id], state });
  }
  return steps;
}
