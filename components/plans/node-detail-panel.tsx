'use client';
/**
 * The detail panel of one node: what it is, estimate vs actual per field with the misestimate
 * factor and its direction (coloured at 10×/100×/1000×), and exclusive vs inclusive figures.
 */
import { useEffect, useId, useMemo, useRef, type ReactNode } from 'react';
import type { ExecutionGraph, NodeEstimate } from '@/server/runtime/ir/graph';
import { formatSeconds, formatTokens, formatUsd } from '@/components/explain/format';
import { nodeDetail } from '@/components/explain/node-detail';
import { inclusiveFigures } from './inclusive-figures';
import { readMisestimate, SEVERITY_LABELS, type MisestimateReading } from './misestimate-scale';
import { DataTable, type ColumnList } from '@/components/ui/data-table';
import type { Metric, PlanNodeView } from './plan-metrics';
import { NodeSettings } from './node-settings';
import { CompressionLineage } from './compression-lineage';

const FIELDS: readonly { readonly metric: Metric; readonly label: string; readonly format: (value: number) => string }[] = [
  { metric: 'tokens', label: 'Tokens', format: formatTokens },
  { metric: 'costUsd', label: 'Cost', format: formatUsd },
  { metric: 'latencySeconds', label: 'Latency', format: formatSeconds },
];

const INCLUSIVE_HELP =
  'Exclusive: this node alone. Inclusive: this node plus every node upstream of it (its inputs, their inputs…), each counted once — the work its output embodies. Inclusive latency is a sum of work; the critical path is the elapsed time if independent branches ran in parallel.';

function EstimateToActual({ estimate, actual }: { readonly estimate: string; readonly actual?: string }) {
  return (
    <>
      <span className="muted">{estimate}</span>
      {actual !== undefined ? <> → {actual}</> : null}
    </>
  );
}

const NOT_RUN = <span className="muted">not run</span>;
const DASH = <span className="muted">—</span>;

interface EstimateRow {
  readonly field: string;
  readonly label: string;
  readonly estimate: string;
  readonly actual: ReactNode;
  /** Only the evidence fields have a misestimate factor; model tokens are shown for their spend alone. */
  readonly misestimate: { readonly reading?: MisestimateReading } | null;
}

function estimateRows(view: PlanNodeView): readonly EstimateRow[] {
  const rows = FIELDS.map(({ metric, label, format }): EstimateRow => ({
    field: metric,
    label,
    estimate: format(view.estimate[metric]),
    actual: view.actual ? format(view.actual[metric]) : NOT_RUN,
    misestimate: { reading: readMisestimate(view.misestimate?.[metric]) },
  }));
  if (!view.estimate.modelTokens && !view.actual?.modelTokens) return rows;
  // A retriever that calls a model (an LLM reranker): its spend, apart from the evidence tokens above.
  const modelTokens: EstimateRow = { field: 'modelTokens', label: 'Model tokens', estimate: formatTokens(view.estimate.modelTokens ?? 0), actual: view.actual ? formatTokens(view.actual.modelTokens ?? 0) : NOT_RUN, misestimate: null };
  return [...rows, modelTokens];
}

const ESTIMATE_COLUMNS: ColumnList<EstimateRow> = [
  { key: 'field', header: 'Field', rowHeader: true, cell: (row) => row.label },
  { key: 'estimate', header: 'Estimate', numeric: true, cell: (row) => row.estimate },
  { key: 'actual', header: 'Actual', numeric: true, cell: (row) => row.actual },
  {
    key: 'misestimate',
    header: 'Misestimate',
    cellAttributes: ({ misestimate }) =>
      misestimate ? { className: misestimate.reading?.className, title: misestimate.reading ? `actual / estimate; ${SEVERITY_LABELS[misestimate.reading.severity]}` : undefined, 'data-testid': 'misestimate' } : undefined,
    cell: ({ misestimate }) => misestimate?.reading?.text ?? DASH,
  },
];

interface InclusiveRow {
  readonly label: string;
  readonly exclusive: ReactNode;
  readonly inclusive: ReactNode;
}

type Figures = { readonly estimate: ReturnType<typeof inclusiveFigures>; readonly measured: ReturnType<typeof inclusiveFigures> };

function inclusiveRows(figures: Figures, measuredIsActual: boolean): readonly InclusiveRow[] {
  const pair = (format: (value: number) => string, estimate: number, measured: number) => <EstimateToActual estimate={format(estimate)} actual={measuredIsActual ? format(measured) : undefined} />;
  return [
    ...FIELDS.map(({ metric, label, format }) => ({
      label,
      exclusive: pair(format, figures.estimate.exclusive[metric], figures.measured.exclusive[metric]),
      inclusive: pair(format, figures.estimate.inclusive[metric], figures.measured.inclusive[metric]),
    })),
    { label: 'Critical path', exclusive: null, inclusive: pair(formatSeconds, figures.estimate.criticalPathSeconds, figures.measured.criticalPathSeconds) },
  ];
}

const INCLUSIVE_COLUMNS: ColumnList<InclusiveRow> = [
  { key: 'field', header: 'Field', rowHeader: true, cell: (row) => row.label },
  { key: 'exclusive', header: 'Exclusive', numeric: true, cellAttributes: (row) => (row.exclusive === null ? { className: 'muted' } : undefined), cell: (row) => row.exclusive ?? '—' },
  { key: 'inclusive', header: 'Inclusive', numeric: true, cell: (row) => row.inclusive },
];

interface NodeDetailPanelProps {
  readonly graph: ExecutionGraph;
  readonly views: readonly PlanNodeView[];
  readonly view: PlanNodeView;
  readonly onClose: () => void;
}

export function NodeDetailPanel({ graph, views, view, onClose }: NodeDetailPanelProps) {
  const heading = useRef<HTMLHeadingElement>(null);
  // Each table named by the heading above it: two panels can be open at once on the compare page.
  const tableId = useId();
  useEffect(() => heading.current?.focus(), [view.node.id]);
  const figures = useMemo(() => {
    const estimates = new Map<string, NodeEstimate>(views.map((entry) => [entry.node.id, entry.estimate]));
    const measured = new Map<string, NodeEstimate>(views.map((entry) => [entry.node.id, entry.measured]));
    return { estimate: inclusiveFigures(graph, estimates, view.node.id), measured: inclusiveFigures(graph, measured, view.node.id) };
  }, [graph, views, view.node.id]);
  const { node } = view;
  const titleId = `node-detail-${node.id}`;
  return (
    <aside className="plan-detail panel" role="dialog" aria-modal="false" aria-labelledby={titleId} data-testid="node-detail">
      <div className="plan-detail-head">
        <h2 id={titleId} ref={heading} tabIndex={-1}>
          <span className={`plan-node-kind kind-${node.kind}`}>{node.kind}</span> {node.id}
        </h2>
        <button type="button" className="plan-detail-close" onClick={onClose} aria-label="Close node details (Esc)" data-testid="node-detail-close">
          ×
        </button>
      </div>
      <p className="plan-detail-what">{nodeDetail(node) || '—'}</p>
      <p>
        <span className={`status status-${view.status === 'done' ? 'completed' : view.status}`}>{view.status}</span>{' '}
        {view.attempts > 1 ? <span className="badge hot">{view.attempts} attempts</span> : null}{' '}
        {view.tags.map((tag) => (
          <span key={tag} className="plan-node-tag">
            {tag}
          </span>
        ))}
      </p>

      <h3 id={`${tableId}-estimates`}>Estimate vs actual</h3>
      <DataTable rows={estimateRows(view)} columns={ESTIMATE_COLUMNS} rowKey={(row) => row.field} rowAttributes={(row) => ({ 'data-field': row.field })} dense labelledBy={`${tableId}-estimates`} testId="estimate-vs-actual" />

      <h3>
        <span id={`${tableId}-inclusive`}>Exclusive and inclusive</span>{' '}
        <abbr className="plan-help" title={INCLUSIVE_HELP} tabIndex={0} aria-label={INCLUSIVE_HELP}>
          ?
        </abbr>
      </h3>
      <DataTable rows={inclusiveRows(figures, view.measuredIsActual)} columns={INCLUSIVE_COLUMNS} rowKey={(row) => row.label} dense labelledBy={`${tableId}-inclusive`} testId="inclusive-figures" />
      <p className="muted small">Each cell reads estimate → actual. Inclusive counts {figures.measured.upstream} upstream node{figures.measured.upstream === 1 ? '' : 's'}.</p>

      {view.compression ? <CompressionLineage compression={view.compression} headingId={`${tableId}-compression`} /> : null}

      <h3>Settings</h3>
      <NodeSettings view={view} />
    </aside>
  );
}
