/**
 * A run's spans as a tree for the waterfall: children by parent id, ordered by start time, and the
 * rows visible under the current collapse state. Pure and linear-ish (O(n log n) for the sort), so a
 * 1,000-span run is laid out in well under a frame; only the rows on screen are rendered.
 */
import type { Span } from '@/server/runtime/contracts/trace-sink';

export interface SpanTree {
  readonly roots: readonly Span[];
  readonly childrenOf: ReadonlyMap<string, readonly Span[]>;
  readonly parentOf: ReadonlyMap<string, string>;
  /** Epoch milliseconds of the earliest start and the latest end: the time axis. */
  readonly startMs: number;
  readonly endMs: number;
}

export interface SpanRow {
  readonly span: Span;
  readonly depth: number;
  readonly hasChildren: boolean;
  readonly expanded: boolean;
  /** Offset from the run's first span and length, both in milliseconds. */
  readonly offsetMs: number;
  readonly durationMs: number;
}

const byStart = (left: Span, right: Span) => Date.parse(left.startedAt) - Date.parse(right.startedAt) || left.name.localeCompare(right.name);

export function buildSpanTree(spans: readonly Span[]): SpanTree {
  const ids = new Set(spans.map((span) => span.id));
  const children = new Map<string, Span[]>();
  const parentOf = new Map<string, string>();
  const roots: Span[] = [];
  let startMs = Number.POSITIVE_INFINITY;
  let endMs = Number.NEGATIVE_INFINITY;
  for (const span of spans) {
    startMs = Math.min(startMs, Date.parse(span.startedAt));
    endMs = Math.max(endMs, Date.parse(span.endedAt), Date.parse(span.startedAt) + span.durationMs);
    // A parent outside this run (or missing) would hide the span; it becomes a root instead.
    if (span.parentId && ids.has(span.parentId) && span.parentId !== span.id) {
      parentOf.set(span.id, span.parentId);
      const siblings = children.get(span.parentId);
      if (siblings) siblings.push(span);
      else children.set(span.parentId, [span]);
    } else roots.push(span);
  }
  roots.sort(byStart);
  for (const siblings of children.values()) siblings.sort(byStart);
  if (!Number.isFinite(startMs)) startMs = endMs = 0;
  return { roots, childrenOf: children, parentOf, startMs, endMs };
}

/** Depth-first rows, skipping the subtrees of collapsed spans. Iterative: deep trees cannot overflow the stack. */
export function visibleRows(tree: SpanTree, collapsed: ReadonlySet<string>): SpanRow[] {
  const rows: SpanRow[] = [];
  const stack: { span: Span; depth: number }[] = [...tree.roots].reverse().map((span) => ({ span, depth: 0 }));
  const seen = new Set<string>();
  while (stack.length > 0) {
    const { span, depth } = stack.pop()!;
    if (seen.has(span.id)) continue;
    seen.add(span.id);
    const children = tree.childrenOf.get(span.id) ?? [];
    const expanded = !collapsed.has(span.id);
    rows.push({ span, depth, hasChildren: children.length > 0, expanded, offsetMs: Date.parse(span.startedAt) - tree.startMs, durationMs: span.durationMs });
    if (expanded) for (let index = children.length - 1; index >= 0; index -= 1) stack.push({ span: children[index], depth: depth + 1 });
  }
  return rows;
}

/** Ids of every span that has children: "collapse all". */
export function parentIds(tree: SpanTree): Set<string> {
  return new Set(tree.childrenOf.keys());
}

/** Span count of a subtree, the span itself included (shown on a collapsed row). */
export function subtreeSize(tree: SpanTree, spanId: string): number {
  let count = 0;
  const stack = [spanId];
  while (stack.length > 0) {
    const id = stack.pop()!;
    count += 1;
    for (const child of tree.childrenOf.get(id) ?? []) stack.push(child.id);
  }
  return count;
}

/** Evenly spaced axis ticks at round values (1, 2 or 5 × 10^n ms). */
export function axisTicks(totalMs: number, wanted = 5): number[] {
  if (!(totalMs > 0)) return [0];
  const raw = totalMs / wanted;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((factor) => factor * magnitude).find((candidate) => candidate >= raw) ?? raw;
  const ticks: number[] = [];
  for (let tick = 0; tick <= totalMs + step * 1e-9; tick += step) ticks.push(tick);
  return ticks;
}
