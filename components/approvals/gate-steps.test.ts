import { describe, expect, it } from 'vitest';
import type { AnalyzedNode } from '@/server/runtime/explain/explain-types';
import type { GraphNode } from '@/server/runtime/ir/graph';
import { foldSteps } from './gate-steps';

const node = (id: string, kind: string) => ({ id, kind, inputs: [] }) as unknown as GraphNode;
const analyzed = (nodeId: string, status: AnalyzedNode['status']) => ({ nodeId, status }) as AnalyzedNode;

describe('foldSteps', () => {
  it('folds runs of one kind and state, and marks the gate and what runs after it', () => {
    const nodes = [node('r1', 'retrieve'), node('r2', 'retrieve'), node('r3', 'retrieve'), node('fuse', 'fuse'), node('approve', 'approve'), node('reason', 'reason'), node('verify', 'verify')];
    const status = [analyzed('r1', 'done'), analyzed('r2', 'done'), analyzed('r3', 'skipped'), analyzed('fuse', 'done'), analyzed('approve', 'pending')];
    const steps = foldSteps(nodes, status, 'approve', ['reason', 'verify']);
    expect(steps.map((step) => `${step.kind}×${step.ids.length}:${step.state}`)).toEqual(['retrieve×2:done', 'retrieve×1:other', 'fuse×1:done', 'approve×1:gate', 'reason×1:after', 'verify×1:after']);
  });
});
