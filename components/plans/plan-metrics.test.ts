import { describe, expect, it } from 'vitest';
import type { AnalyzeSection } from '@/server/runtime/explain/explain-types';
import { createGraph, createNode } from '@/server/runtime/ir/graph';
import { DAGRE_MAX_NODES, graphEdges, layoutDirection, layoutExtent, layoutGraph, NODE_HEIGHT, NODE_WIDTH } from './graph-layout';
import { inclusiveFigures, upstreamOf } from './inclusive-figures';
import { readMisestimate } from './misestimate-scale';
import { buildNodeViews, METRICS, shade } from './plan-metrics';

/** WCAG 2.x relative luminance of an sRGB colour given as 0–255 channels. */
function luminance(rgb: readonly number[]): number {
  const [r, g, b] = rgb.map((channel) => {
    const c = channel / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}

/** The 0–255 channels of a CSS `hsl(H S% L%)` colour, as a browser rounds them. */
function hslToRgb(css: string): number[] {
  const match = /^hsl\((\d+(?:\.\d+)?) (\d+(?:\.\d+)?)% (\d+(?:\.\d+)?)%\)$/.exec(css);
  if (!match) throw new Error(`not an hsl() colour: ${css}`);
  const [hue, saturation, lightness] = [Number(match[1]), Number(match[2]) / 100, Number(match[3]) / 100];
  const chroma = saturation * Math.min(lightness, 1 - lightness);
  const channel = (n: number) => {
    const k = (n + hue / 30) % 12;
    return Math.round(255 * (lightness - chroma * Math.max(-1, Math.min(k - 3, 9 - k, 1))));
  };
  return [channel(0), channel(8), channel(4)];
}

const contrast = (a: readonly number[], b: readonly number[]) => {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (light! + 0.05) / (dark! + 0.05);
};

const estimate = (tokens: number, costUsd: number, latencySeconds: number) => ({ tokens, costUsd, latencySeconds });

// A diamond: two retrievals fuse, then reason. "b" feeds both fuse and reason.
const graph = createGraph([
  createNode('retrieve', { id: 'a', inputs: [], method: 'bm25', sources: ['logs'], sourceKinds: 'all', k: 5, estimate: estimate(100, 0, 0.02) }),
  createNode('retrieve', { id: 'b', inputs: [], method: 'dense', sources: ['docs'], sourceKinds: 'all', k: 5, estimate: estimate(200, 0, 0.05) }),
  createNode('fuse', { id: 'fuse', inputs: ['a', 'b'], strategy: 'rrf', rrfK: 60, k: 5, estimate: estimate(250, 0, 0.001) }),
  createNode('reason', { id: 'reason', inputs: ['fuse', 'b'], strategy: 'single_shot', tier: 'local', localOnly: true, requireCitations: true, maxOutputTokens: 300, estimate: estimate(900, 0.01, 1) }),
]);

const analyze: AnalyzeSection = {
  runId: 'r',
  status: 'completed',
  nodes: [
    { nodeId: 'a', kind: 'retrieve', status: 'done', attempts: 1, estimate: estimate(100, 0, 0.02), actual: estimate(120, 0, 0.5) },
    { nodeId: 'b', kind: 'retrieve', status: 'done', attempts: 2, estimate: estimate(200, 0, 0.05), actual: estimate(80, 0, 0.04) },
    { nodeId: 'fuse', kind: 'fuse', status: 'done', attempts: 1, estimate: estimate(250, 0, 0.001), actual: estimate(150, 0, 0.001) },
    { nodeId: 'reason', kind: 'reason', status: 'pending', attempts: 0, estimate: estimate(900, 0.01, 1) },
  ],
  totals: { estimate: estimate(0, 0, 0), actual: estimate(0, 0, 0), misestimate: undefined },
};

describe('layout', () => {
  it('places inputs above the nodes that consume them (a typical plan is deep, not wide), without overlaps', () => {
    const positions = layoutGraph(graph);
    expect(layoutDirection(graph)).toBe('TB');
    expect(positions.size).toBe(4);
    expect(positions.get('a')!.y).toBeLessThan(positions.get('fuse')!.y);
    expect(positions.get('fuse')!.y).toBeLessThan(positions.get('reason')!.y);
    // Two inputs side by side: the drawing is two nodes wide and three ranks deep.
    const extent = layoutExtent(positions);
    expect(extent.width).toBeLessThan(3 * NODE_WIDTH);
    expect(extent.height).toBeGreaterThan(3 * NODE_HEIGHT);
    const boxes = [...positions.values()];
    for (const [index, box] of boxes.entries()) {
      for (const other of boxes.slice(index + 1)) {
        const overlap = Math.abs(box.x - other.x) < NODE_WIDTH && Math.abs(box.y - other.y) < NODE_HEIGHT;
        expect(overlap).toBe(false);
      }
    }
    expect(graphEdges(graph).map((edge) => edge.id)).toEqual(['a->fuse', 'b->fuse', 'fuse->reason', 'b->reason']);
  });

  it('lays out a 200-node two-level fan-in fast, grouped by fusion, without overlaps', () => {
    const sources = ['docs', 'events', 'git', 'logs', 'metrics'];
    const retrieves = Array.from({ length: 190 }, (_, index) => createNode('retrieve', { id: `r${index}`, inputs: [], method: 'bm25', sources: [sources[index % 5]], sourceKinds: 'all' as const, k: 3 }));
    const fusions = sources.map((source, at) => createNode('fuse', { id: `fuse-${source}`, inputs: retrieves.filter((_, index) => index % 5 === at).map((node) => node.id), strategy: 'rrf', rrfK: 60, k: 5 }));
    const big = createGraph([...retrieves, ...fusions, createNode('fuse', { id: 'fuse', inputs: fusions.map((node) => node.id), strategy: 'rrf', rrfK: 10, k: 10 }), createNode('compress', { id: 'compress', inputs: ['fuse'], method: 'clip' }), createNode('merge', { id: 'end', inputs: ['compress', 'r0'] })]);
    expect(big.nodes.length).toBeGreaterThan(DAGRE_MAX_NODES);
    expect(layoutDirection(big)).toBe('LR');
    const started = performance.now();
    const positions = layoutGraph(big);
    expect(performance.now() - started).toBeLessThan(100);
    expect(positions.size).toBe(big.nodes.length);
    for (const node of big.nodes) for (const input of node.inputs) expect(positions.get(input)!.x).toBeLessThan(positions.get(node.id)!.x);
    const byColumn = new Map<number, number[]>();
    for (const { x, y } of positions.values()) byColumn.set(x, [...(byColumn.get(x) ?? []), y]);
    for (const ys of byColumn.values()) {
      const sorted = ys.sort((a, b) => a - b);
      for (let at = 1; at < sorted.length; at += 1) expect(sorted[at] - sorted[at - 1]).toBeGreaterThanOrEqual(NODE_HEIGHT);
    }
    // Each source's retrievals sit together, and its fusion sits within their span.
    for (const fusion of fusions) {
      const ys = fusion.inputs.map((id) => positions.get(id)!.y);
      const span = Math.max(...ys) - Math.min(...ys);
      expect(span).toBeLessThan(40 * (NODE_HEIGHT + 24));
      expect(positions.get(fusion.id)!.y).toBeGreaterThanOrEqual(Math.min(...ys));
      expect(positions.get(fusion.id)!.y).toBeLessThanOrEqual(Math.max(...ys));
    }
  });
});

describe('node views', () => {
  const { views, totals } = buildNodeViews(graph, analyze, ['extractive-reader']);
  const byId = new Map(views.map((view) => [view.node.id, view]));

  it('uses the actual where a node ran and the estimate where it did not', () => {
    expect(byId.get('a')!.measured).toEqual(estimate(120, 0, 0.5));
    expect(byId.get('a')!.measuredIsActual).toBe(true);
    expect(byId.get('reason')!.measured).toEqual(estimate(900, 0.01, 1));
    expect(byId.get('reason')!.status).toBe('pending');
    expect(totals.measured.tokens).toBe(120 + 80 + 150 + 900);
  });

  it('measures a skipped node as zero: it spent nothing, so it neither shades nor leads', () => {
    const skipped: AnalyzeSection = { ...analyze, nodes: analyze.nodes.map((node) => (node.nodeId === 'reason' ? { ...node, status: 'skipped' as const } : node)) };
    const { views: skippedViews, totals: skippedTotals } = buildNodeViews(graph, skipped);
    const reason = skippedViews.find((view) => view.node.id === 'reason')!;
    expect(reason.measured).toEqual(estimate(0, 0, 0));
    expect(reason.estimate).toEqual(estimate(900, 0.01, 1));
    expect(reason.tags).toEqual([]);
    expect(skippedTotals.measured.tokens).toBe(120 + 80 + 150);
  });

  it('computes shares of the total and intensities relative to the largest node', () => {
    const a = byId.get('a')!;
    expect(a.share.latencySeconds).toBeCloseTo(0.5 / (0.5 + 0.04 + 0.001 + 1));
    expect(a.intensity.latencySeconds).toBeCloseTo(0.5);
    expect(byId.get('reason')!.intensity.tokens).toBe(1);
  });

  it('tags the costliest, slowest and most token-hungry node, and nothing when all are zero', () => {
    expect(byId.get('reason')!.tags).toEqual(['costliest', 'slowest', 'most tokens']);
    expect(byId.get('a')!.tags).toEqual([]);
    const free = buildNodeViews(createGraph([createNode('merge', { id: 'm', inputs: [] })]), undefined);
    expect(free.views[0].tags).toEqual([]);
    expect(free.views[0].status).toBe('planned');
  });

  it('lists models on reason nodes only', () => {
    expect(byId.get('reason')!.models).toEqual(['extractive-reader']);
    expect(byId.get('a')!.models).toEqual([]);
  });

  it('shades from near-white to saturated and clamps bad input', () => {
    expect(shade(0, 'costUsd')).toBe('hsl(145 20% 97%)');
    expect(shade(1, 'latencySeconds')).toBe('hsl(28 75% 62%)');
    expect(shade(Number.NaN, 'tokens')).toBe(shade(0, 'tokens'));
    expect(shade(7, 'tokens')).toBe(shade(1, 'tokens'));
  });

  it('checks the contrast computation against known WCAG figures', () => {
    expect(contrast([0, 0, 0], [255, 255, 255])).toBeCloseTo(21, 5);
    expect(hslToRgb('hsl(0 100% 50%)')).toEqual([255, 0, 0]);
    // #767676 on white is the classic "just passes AA" grey: 4.54:1.
    expect(contrast([0x76, 0x76, 0x76], [255, 255, 255])).toBeCloseTo(4.54, 2);
  });

  // Node text (--color-text, #1c2024 in app/globals.css) sits on the shading: WCAG AA's 4.5:1 must
  // hold at full intensity, the darkest shade, and everywhere on the way there.
  it.each(METRICS)('keeps body text at 4.5:1 or more on the %s shading', (metric) => {
    const text = [0x1c, 0x20, 0x24];
    expect(contrast(text, hslToRgb(shade(1, metric)))).toBeGreaterThanOrEqual(4.5);
    for (let step = 0; step <= 20; step += 1) expect(contrast(text, hslToRgb(shade(step / 20, metric)))).toBeGreaterThanOrEqual(4.5);
  });
});

describe('inclusive and exclusive figures', () => {
  const figures = new Map(graph.nodes.map((node) => [node.id, node.estimate!]));

  it('counts each upstream node once, even when reached along two paths', () => {
    expect([...upstreamOf(graph, 'reason')].sort()).toEqual(['a', 'b', 'fuse']);
    const reason = inclusiveFigures(graph, figures, 'reason');
    expect(reason.exclusive).toEqual(estimate(900, 0.01, 1));
    expect(reason.inclusive.tokens).toBe(900 + 250 + 100 + 200);
    expect(reason.inclusive.latencySeconds).toBeCloseTo(1 + 0.001 + 0.02 + 0.05);
    expect(reason.upstream).toBe(3);
  });

  it('takes the slowest chain for the critical path, not the sum', () => {
    expect(inclusiveFigures(graph, figures, 'reason').criticalPathSeconds).toBeCloseTo(0.05 + 0.001 + 1);
    const leaf = inclusiveFigures(graph, figures, 'a');
    expect(leaf.inclusive).toEqual(leaf.exclusive);
    expect(leaf.criticalPathSeconds).toBeCloseTo(0.02);
  });
});

describe('misestimate colours', () => {
  it.each([
    [{ factor: 1, direction: 'exact' as const }, 'fine', 'as estimated'],
    [{ factor: 3, direction: 'under' as const }, 'fine', 'under-estimated 3.0×'],
    [{ factor: 12, direction: 'over' as const }, 'x10', 'over-estimated 12×'],
    [{ factor: 150, direction: 'under' as const }, 'x100', 'under-estimated 150×'],
    [{ factor: 2500, direction: 'over' as const }, 'x1000', 'over-estimated 2500×'],
  ])('%o reads as %s', (misestimate, severity, text) => {
    const reading = readMisestimate(misestimate)!;
    expect(reading.severity).toBe(severity);
    expect(reading.className).toBe(`misestimate-${severity}`);
    expect(reading.text).toBe(text);
  });

  it('treats a factor below 1 as the same distance the other way', () => {
    expect(readMisestimate({ factor: 0.01, direction: 'over' })!.severity).toBe('x100');
    expect(readMisestimate(undefined)).toBeUndefined();
  });
});
