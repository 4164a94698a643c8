'use client';

/**
 * The span waterfall: one row per span, indented by depth, its bar placed on the run's time axis.
 * Rows are virtualised (only those in the viewport plus a small overscan are in the DOM), so a
 * 1,000-span run costs the same to render and to click as a 30-span one. Keyboard: ↑/↓ move,
 * →/← expand/collapse (or go to child/parent), Home/End, Enter/Space shows the span's attributes.
 */
import { useCallback, useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import type { Span } from '@/server/runtime/contracts/trace-sink';
import { axisTicks, buildSpanTree, parentIds, subtreeSize, visibleRows } from './span-tree';
import { SpanDetail } from './span-detail';
import { formatMs } from './trace-format';
import styles from './traces.module.css';

const ROW_HEIGHT = 28;
const VIEWPORT_HEIGHT = 560;
const OVERSCAN = 8;
const INDENT_PX = 14;

export function SpanWaterfall({ spans }: { readonly spans: readonly Span[] }) {
  const tree = useMemo(() => buildSpanTree(spans), [spans]);
  const [collapsed, setCollapsed] = useState<ReadonlySet<string>>(() => new Set());
  const rows = useMemo(() => visibleRows(tree, collapsed), [tree, collapsed]);
  const [selectedId, setSelectedId] = useState<string | undefined>();
  const [activeIndex, setActiveIndex] = useState(0);
  const [scrollTop, setScrollTop] = useState(0);
  const viewport = useRef<HTMLDivElement>(null);
  const focusPending = useRef(false);
  const totalMs = Math.max(tree.endMs - tree.startMs, 0.001);
  const ticks = useMemo(() => axisTicks(totalMs), [totalMs]);
  const selected = useMemo(() => spans.find((span) => span.id === selectedId), [spans, selectedId]);

  const first = Math.max(0, Math.floor(scrollTop / ROW_HEIGHT) - OVERSCAN);
  const last = Math.min(rows.length, Math.ceil((scrollTop + VIEWPORT_HEIGHT) / ROW_HEIGHT) + OVERSCAN);
  const clampedActive = Math.min(activeIndex, Math.max(0, rows.length - 1));

  const toggle = useCallback((spanId: string) => {
    setCollapsed((previous) => {
      const next = new Set(previous);
      if (next.has(spanId)) next.delete(spanId);
      else next.add(spanId);
      return next;
    });
  }, []);

  /** Moves the roving focus, scrolling the row into view first so it is rendered. */
  const moveTo = useCallback(
    (index: number) => {
      const target = Math.max(0, Math.min(rows.length - 1, index));
      const element = viewport.current;
      if (element) {
        const top = target * ROW_HEIGHT;
        if (top < element.scrollTop) element.scrollTop = top;
        else if (top + ROW_HEIGHT > element.scrollTop + element.clientHeight) element.scrollTop = top + ROW_HEIGHT - element.clientHeight;
        setScrollTop(element.scrollTop);
      }
      focusPending.current = true;
      setActiveIndex(target);
    },
    [rows.length],
  );

  useEffect(() => {
    if (!focusPending.current) return;
    focusPending.current = false;
    viewport.current?.querySelector<HTMLElement>(`[data-index="${clampedActive}"]`)?.focus();
  }, [clampedActive, first, last]);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const row = rows[clampedActive];
    if (!row) return;
    const pageRows = Math.floor(VIEWPORT_HEIGHT / ROW_HEIGHT) - 1;
    const keys: Record<string, () => void> = {
      ArrowDown: () => moveTo(clampedActive + 1),
      ArrowUp: () => moveTo(clampedActive - 1),
      PageDown: () => moveTo(clampedActive + pageRows),
      PageUp: () => moveTo(clampedActive - pageRows),
      Home: () => moveTo(0),
      End: () => moveTo(rows.length - 1),
      ArrowRight: () => (row.hasChildren && !row.expanded ? toggle(row.span.id) : row.hasChildren ? moveTo(clampedActive + 1) : undefined),
      ArrowLeft: () => {
        if (row.hasChildren && row.expanded) return toggle(row.span.id);
        const parentId = tree.parentOf.get(row.span.id);
        if (parentId) moveTo(rows.findIndex((candidate) => candidate.span.id === parentId));
      },
      Enter: () => setSelectedId(row.span.id),
      ' ': () => setSelectedId(row.span.id),
    };
    const action = keys[event.key];
    if (!action) return;
    event.preventDefault();
    action();
  };

  return (
    <div className={styles.waterfallLayout}>
      <div className={styles.waterfall}>
        <div className={styles.toolbar}>
          <span className="muted" data-testid="span-count">
            {spans.length.toLocaleString('en-US')} spans · {formatMs(totalMs)}
          </span>
          <button type="button" onClick={() => setCollapsed(new Set())}>
            Expand all
          </button>
          <button type="button" onClick={() => setCollapsed(parentIds(tree))}>
            Collapse all
          </button>
        </div>
        <div className={styles.axis} aria-hidden="true">
          <span className={styles.axisName}>Span</span>
          <span className={styles.axisTrack}>
            {ticks.map((tick) => (
              <span key={tick} className={styles.tick} style={{ left: `${(tick / totalMs) * 100}%` }}>
                {formatMs(tick)}
              </span>
            ))}
          </span>
          <span className={styles.axisDuration}>Duration</span>
        </div>
        <div
          ref={viewport}
          className={styles.viewport}
          style={{ height: VIEWPORT_HEIGHT }}
          role="tree"
          aria-label="Spans of this run"
          data-testid="waterfall"
          // When the focused row has scrolled out of the DOM, the tree itself takes Tab and hands focus to the first visible row.
          tabIndex={clampedActive >= first && clampedActive < last ? -1 : 0}
          onFocus={(event) => {
            if (event.target === event.currentTarget) moveTo(Math.floor(event.currentTarget.scrollTop / ROW_HEIGHT));
          }}
          onScroll={(event) => setScrollTop(event.currentTarget.scrollTop)}
          onKeyDown={onKeyDown}
        >
          <div style={{ height: rows.length * ROW_HEIGHT, position: 'relative' }}>
            {rows.slice(first, last).map((row, offset) => {
              const index = first + offset;
              const { span } = row;
              const left = (row.offsetMs / totalMs) * 100;
              const width = Math.max((row.durationMs / totalMs) * 100, 0.15);
              return (
                <div
                  key={span.id}
                  role="treeitem"
                  aria-level={row.depth + 1}
                  aria-expanded={row.hasChildren ? row.expanded : undefined}
                  aria-selected={span.id === selectedId}
                  tabIndex={index === clampedActive ? 0 : -1}
                  data-index={index}
                  data-span-id={span.id}
                  data-testid="span-row"
                  className={`${styles.row} ${span.id === selectedId ? styles.rowSelected : ''}`}
                  style={{ top: index * ROW_HEIGHT, height: ROW_HEIGHT }}
                  onClick={() => {
                    setActiveIndex(index);
                    setSelectedId(span.id);
                  }}
                >
                  <span className={styles.name} style={{ paddingLeft: row.depth * INDENT_PX }}>
                    {row.hasChildren ? (
                      <button
                        type="button"
                        tabIndex={-1}
                        className={styles.twisty}
                        aria-label={`${row.expanded ? 'Collapse' : 'Expand'} ${span.name}`}
                        onClick={(event) => {
                          event.stopPropagation();
                          toggle(span.id);
                        }}
                      >
                        {row.expanded ? '▾' : '▸'}
                      </button>
                    ) : (
                      <span className={styles.twistySpacer} />
                    )}
                    <span className={styles.spanName} title={span.name}>
                      {span.name}
                    </span>
                    {row.hasChildren && !row.expanded ? <span className={styles.hidden}>+{subtreeSize(tree, span.id) - 1}</span> : null}
                  </span>
                  <span className={styles.track}>
                    <span className={`${styles.bar} ${styles[`category-${span.category}`] ?? ''} ${span.status === 'error' ? styles.barError : ''}`} style={{ left: `${left}%`, width: `${width}%` }} />
                  </span>
                  <span className={styles.duration}>{formatMs(row.durationMs)}</span>
                </div>
              );
            })}
          </div>
        </div>
      </div>
      <SpanDetail span={selected} runStartMs={tree.startMs} />
    </div>
  );
}
