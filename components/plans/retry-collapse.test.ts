import { describe, expect, it } from 'vitest';
import { layoutGraph } from './graph-layout';
import { collapseRetryAttempts, type AttemptNodeView } from './retry-collapse';

/** A gated plan with two retry attempts, as verification-gate.ts unrolls it. */
function gatedPlan(retry2: AttemptNodeView['status'], retry3: AttemptNodeView['status']): AttemptNodeView[] {
  const done = (id: string, inputs: string[]): AttemptNodeView => ({ node: { id, inputs }, status: 'done' });
  const attempt = (n: number, after: string, status: AttemptNodeView['status']): AttemptNodeView[] =>
    [
      { id: `retrieve-retry${n}-bm25`, inputs: [after] },
      { id: `retrieve-retry${n}-fulltext`, inputs: [after] },
      { id: `fuse-retry${n}`, inputs: [`retrieve-retry${n}-bm25`, `retrieve-retry${n}-fulltext`] },
      { id: `assemble-retry${n}`, inputs: [`fuse-retry${n}`] },
      { id: `reason-retry${n}`, inputs: [`assemble-retry${n}`] },
      { id: `verify-retry${n}`, inputs: [`reason-retry${n}`, `assemble-retry${n}`] },
      { id: `gate-retry${n}`, inputs: [`verify-retry${n}`] },
    ].map((node) => ({ node, status }));
  return [done('retrieve', []), done('assemble', ['retrieve']), done('reason', ['assemble']), done('verify', ['reason', 'assemble']), done('gate', ['verify']), ...attempt(2, 'gate', retry2), ...attempt(3, 'gate-retry2', retry3)];
}

describe('collapseRetryAttempts', () => {
  it('draws each attempt that has not run as one node, wired where its nodes were', () => {
    const shown = collapseRetryAttempts(gatedPlan('skipped', 'skipped'), new Set());
    expect(shown.attempts.map(({ id, attempt, nodeIds }) => [id, attempt, nodeIds.length])).toEqual([
      ['attempt:2', 2, 7],
      ['attempt:3', 3, 7],
    ]);
    expect(shown.nodes.map((node) => node.id)).toEqual(['retrieve', 'assemble', 'reason', 'verify', 'gate', 'attempt:2', 'attempt:3']);
    expect(shown.nodes.find((node) => node.id === 'attempt:2')!.inputs).toEqual(['gate']);
    // Attempt 3 reads attempt 2's gate: the edge joins the two collapsed nodes, and none points at itself.
    expect(shown.nodes.find((node) => node.id === 'attempt:3')!.inputs).toEqual(['attempt:2']);
    expect(shown.hidden.has('reason-retry2')).toBe(true);
    // An attempt's retrievers are named retrieve-retry<n>-<method>: they belong to it too.
    expect(shown.hidden.has('retrieve-retry2-bm25')).toBe(true);
    expect(shown.hidden.has('reason')).toBe(false);
    // The first attempt's answer path is the tallest column left: two collapsed nodes below it, not ten.
    const positions = layoutGraph(shown);
    expect(positions.size).toBe(7);
  });

  it('draws an attempt that ran in full, and one the reader expanded', () => {
    const ran = collapseRetryAttempts(gatedPlan('done', 'pending'), new Set());
    expect(ran.attempts.map((attempt) => attempt.attempt)).toEqual([3]);
    expect(ran.nodes.some((node) => node.id === 'reason-retry2')).toBe(true);
    expect(ran.nodes.find((node) => node.id === 'attempt:3')!.inputs).toEqual(['gate-retry2']);

    const expanded = collapseRetryAttempts(gatedPlan('skipped', 'skipped'), new Set([2]));
    expect(expanded.attempts.map((attempt) => attempt.attempt)).toEqual([3]);
    expect(expanded.nodes.find((node) => node.id === 'retrieve-retry2-bm25')!.inputs).toEqual(['gate']);
  });

  it('leaves a plan without retry attempts as it is', () => {
    const plain = gatedPlan('done', 'done').slice(0, 5);
    const shown = collapseRetryAttempts(plain, new Set());
    expect(shown.attempts).toEqual([]);
    expect(shown.nodes).toEqual(plain.map((view) => view.node));
  });
});
