import { describe, expect, it } from 'vitest';
import type { Span } from '@/server/runtime/contracts/trace-sink';
import { axisTicks, buildSpanTree, parentIds, subtreeSize, visibleRows } from './span-tree';

const T0 = Date.parse('2026-01-01T00:00:00.000Z');

function span(id: string, startMs: number, durationMs: number, parentId?: string): Span {
  return {
    id,
    runId: 'r',
    parentId,
    name: id,
    category: 'node',
    startedAt: new Date(T0 + startMs).toISOString(),
    endedAt: new Date(T0 + startMs + durationMs).toISOString(),
    durationMs,
    tokens: 0,
    costUsd: 0,
    status: 'ok',
    attributes: {},
  };
}

describe('span tree', () => {
  const spans = [span('run', 10, 100), span('plan', 0, 8), span('b', 50, 10, 'run'), span('a', 20, 5, 'run'), span('a1', 21, 2, 'a'), span('orphan', 30, 1, 'gone')];
  const tree = buildSpanTree(spans);

  it('orders roots and siblings by start and makes spans with an unknown parent roots', () => {
    expect(tree.roots.map((root) => root.id)).toEqual(['plan', 'run', 'orphan']);
    expect(tree.childrenOf.get('run')!.map((child) => child.id)).toEqual(['a', 'b']);
    expect([tree.startMs - T0, tree.endMs - T0]).toEqual([0, 110]);
  });

  it('lists rows depth-first with depth and offset, and hides collapsed subtrees', () => {
    expect(visibleRows(tree, new Set()).map((row) => `${row.span.id}@${row.depth}+${row.offsetMs}`)).toEqual(['plan@0+0', 'run@0+10', 'a@1+20', 'a1@2+21', 'b@1+50', 'orphan@0+30']);
    const collapsed = visibleRows(tree, new Set(['a']));
    expect(collapsed.map((row) => row.span.id)).toEqual(['plan', 'run', 'a', 'b', 'orphan']);
    expect(collapsed.find((row) => row.span.id === 'a')).toMatchObject({ hasChildren: true, expanded: false });
    expect(visibleRows(tree, parentIds(tree)).map((row) => row.span.id)).toEqual(['plan', 'run', 'orphan']);
    expect(subtreeSize(tree, 'run')).toBe(4);
  });

  it('survives a parent cycle without looping', () => {
    const cyclic = buildSpanTree([span('x', 0, 1, 'y'), span('y', 0, 1, 'x')]);
    expect(visibleRows(cyclic, new Set())).toEqual([]);
  });

  it('lays out 1,000 spans quickly', () => {
    const many = [span('root', 0, 1000), ...Array.from({ length: 999 }, (_, index) => span(`s${index}`, index, 1, index % 10 === 0 ? 'root' : `s${index - (index % 10)}`))];
    const started = performance.now();
    const rows = visibleRows(buildSpanTree(many), new Set());
    expect(rows).toHaveLength(1000);
    expect(performance.now() - started).toBeLessThan(100);
  });

  it('puts axis ticks at round steps', () => {
    expect(axisTicks(1000)).toEqual([0, 200, 400, 600, 800, 1000]);
    expect(axisTicks(0)).toEqual([0]);
    expect(axisTicks(37)).toEqual([0, 10, 20, 30]);
  });
});
