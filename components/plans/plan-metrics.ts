/**
 * Per-node figures for the plan explorer: what was estimated, what happened, each node's share of
 * the plan's cost, latency and tokens, and the nodes to call out (pev2 tags the slowest and
 * costliest nodes; we add the most token-hungry, because tokens are what an LLM plan spends).
 */
import type { AnalyzeSection, AnalyzedNode } from '@/server/runtime/explain/explain-types';
import type { ExecutionGraph, GraphNode, NodeEstimate } from '@/server/runtime/ir/graph';

export const METRICS = ['costUsd', 'latencySeconds', 'tokens'] as const;
export type Metric = (typeof METRICS)[number];

export const METRIC_LABELS: Readonly<Record<Metric, string>> = { costUsd: 'cost', latencySeconds: 'latency', tokens: 'tokens' };
export const TAG_OF: Readonly<Record<Metric, string>> = { costUsd: 'costliest', latencySeconds: 'slowest', tokens: 'most tokens' };

export const ZERO_ESTIMATE: NodeEstimate = Object.freeze({ tokens: 0, costUsd: 0, latencySeconds: 0 });

export interface PlanNodeView {
  readonly node: GraphNode;
  readonly status: AnalyzedNode['status'] | 'planned';
  readonly attempts: number;
  readonly estimate: NodeEstimate;
  readonly actual?: NodeEstimate;
  readonly misestimate?: AnalyzedNode['misestimate'];
  /** The figure shading and tags use: the actual when the node ran, else the estimate. */
  readonly measured: NodeEstimate;
  readonly measuredIsActual: boolean;
  /** measured / plan total, per metric (0–1). */
  readonly share: Readonly<Record<Metric, number>>;
  /** measured / the largest node's measured, per metric (0–1): what the shading shows. */
  readonly intensity: Readonly<Record<Metric, number>>;
  readonly tags: readonly string[];
  /** Models that answered (reason nodes), read from the run's model spans. */
  readonly models: readonly string[];
  /** A compress node that cut something: its omissions and lineage. */
  readonly compression?: AnalyzedNode['compression'];
}

export interface PlanTotals {
  readonly measured: NodeEstimate;
  readonly max: NodeEstimate;
}

const pick = (estimate: NodeEstimate, metric: Metric) => estimate[metric];

export function buildNodeViews(graph: ExecutionGraph, analyze: AnalyzeSection | undefined, models: readonly string[] = []): { readonly views: readonly PlanNodeView[]; readonly totals: PlanTotals } {
  const analyzed = new Map((analyze?.nodes ?? []).map((node) => [node.nodeId, node]));
  const base = graph.nodes.map((node) => {
    const entry = analyzed.get(node.id);
    const estimate = entry?.estimate ?? node.estimate ?? ZERO_ESTIMATE;
    const actual = entry?.actual;
    // A node the run skipped (a retry attempt behind a passing gate) spent nothing: it neither shades
    // nor leads, or the heaviest-node callout would land on a collapsed attempt that never ran.
    const measured = entry?.status === 'skipped' ? ZERO_ESTIMATE : (actual ?? estimate);
    return { node, entry, estimate, actual, measured };
  });
  const sum = (metric: Metric) => base.reduce((total, item) => total + pick(item.measured, metric), 0);
  const max = (metric: Metric) => base.reduce((largest, item) => Math.max(largest, pick(item.measured, metric)), 0);
  const totals: PlanTotals = {
    measured: { costUsd: sum('costUsd'), latencySeconds: sum('latencySeconds'), tokens: sum('tokens') },
    max: { costUsd: max('costUsd'), latencySeconds: max('latencySeconds'), tokens: max('tokens') },
  };
  const leaders = new Map<Metric, string>();
  for (const metric of METRICS) {
    // Ties keep the first node in plan order; a plan where nothing costs anything tags nothing.
    const leader = base.find((item) => totals.max[metric] > 0 && pick(item.measured, metric) === totals.max[metric]);
    if (leader) leaders.set(metric, leader.node.id);
  }
  const ratio = (value: number, whole: number) => (whole > 0 ? value / whole : 0);
  const views = base.map(({ node, entry, estimate, actual, measured }): PlanNodeView => ({
    node,
    status: entry?.status ?? 'planned',
    attempts: entry?.attempts ?? 0,
    estimate,
    actual,
    misestimate: entry?.misestimate,
    ...(entry?.compression ? { compression: entry.compression } : {}),
    measured,
    measuredIsActual: actual !== undefined,
    share: { costUsd: ratio(measured.costUsd, totals.measured.costUsd), latencySeconds: ratio(measured.latencySeconds, totals.measured.latencySeconds), tokens: ratio(measured.tokens, totals.measured.tokens) },
    intensity: { costUsd: ratio(measured.costUsd, totals.max.costUsd), latencySeconds: ratio(measured.latencySeconds, totals.max.latencySeconds), tokens: ratio(measured.tokens, totals.max.tokens) },
    tags: METRICS.filter((metric) => leaders.get(metric) === node.id).map((metric) => TAG_OF[metric]),
    models: node.kind === 'reason' ? models : [],
  }));
  return { views, totals };
}

const HUE: Readonly<Record<Metric, number>> = { costUsd: 145, latencySeconds: 28, tokens: 262 };
/**
 * The lightness at full intensity, per metric. Node text (#1c2024) sits on the shading and must keep
 * WCAG AA's 4.5:1 at every intensity: green and orange stay light down to 62%, but violet is dark
 * for its lightness (62% gave 3.56:1), so the tokens shading stops at 70% (≈ 5.1:1).
 */
const DARKEST: Readonly<Record<Metric, number>> = { costUsd: 62, latencySeconds: 62, tokens: 70 };

/** Shading for a 0–1 intensity: near-white at 0 (lightness 97%), the metric's hue at 1. */
export function shade(intensity: number, metric: Metric): string {
  const clamped = Math.min(1, Math.max(0, Number.isFinite(intensity) ? intensity : 0));
  return `hsl(${HUE[metric]} ${Math.round(20 + 55 * clamped)}% ${Math.round(97 - (97 - DARKEST[metric]) * clamped)}%)`;
}
