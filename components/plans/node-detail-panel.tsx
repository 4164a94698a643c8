'use client';
/**
 * The detail panel of one node: what it is, estimate vs actual per field with the misestimate
 * factor and its direction (coloured at 10×/100×/1000×), and exclusive vs inclusive figures.
 */
import { useEffect, useId, useMemo, useRef } from 'react';
import type { ExecutionGraph, NodeEstimate } from '@/server/runtime/ir/graph';
import { formatSeconds, formatTokens, formatUsd } from '@/components/explain/format';
import { nodeDetail } from '@/components/explain/node-detail';
import { inclusiveFigures } from './inclusive-figures';
import { readMisestimate, SEVERITY_LABELS } from './misestimate-scale';
import type { Metric, PlanNodeView } from './plan-metrics';
import { NodeSettings } from './node-settings';

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
      <table className="data-table compact" aria-labelledby={`${tableId}-estimates`} data-testid="estimate-vs-actual">
        <thead>
          <tr>
            <th scope="col">Field</th>
            <th scope="col" className="num">Estimate</th>
            <th scope="col" className="num">Actual</th>
            <th scope="col">Misestimate</th>
          </tr>
        </thead>
        <tbody>
          {FIELDS.map(({ metric, label, format }) => {
            const reading = readMisestimate(view.misestimate?.[metric]);
            return (
              <tr key={metric} data-field={metric}>
                <th scope="row">{label}</th>
                <td className="num">{format(view.estimate[metric])}</td>
                <td className="num">{view.actual ? format(view.actual[metric]) : <span className="muted">not run</span>}</td>
                <td className={reading?.className} title={reading ? `actual / estimate; ${SEVERITY_LABELS[reading.severity]}` : undefined} data-testid="misestimate">
                  {reading ? reading.text : <span className="muted">—</span>}
                </td>
              </tr>
            );
          })}
          {view.estimate.modelTokens || view.actual?.modelTokens ? (
            // A retriever that calls a model (an LLM reranker): its spend, apart from the evidence tokens above.
            <tr data-field="modelTokens">
              <th scope="row">Model tokens</th>
              <td className="num">{formatTokens(view.estimate.modelTokens ?? 0)}</td>
              <td className="num">{view.actual ? formatTokens(view.actual.modelTokens ?? 0) : <span className="muted">not run</span>}</td>
              <td>
                <span className="muted">—</span>
              </td>
            </tr>
          ) : null}
        </tbody>
      </table>

      <h3>
        <span id={`${tableId}-inclusive`}>Exclusive and inclusive</span>{' '}
        <abbr className="plan-help" title={INCLUSIVE_HELP} tabIndex={0} aria-label={INCLUSIVE_HELP}>
          ?
        </abbr>
      </h3>
      <table className="data-table compact" aria-labelledby={`${tableId}-inclusive`} data-testid="inclusive-figures">
        <thead>
          <tr>
            <th scope="col">Field</th>
            <th scope="col" className="num">Exclusive</th>
            <th scope="col" className="num">Inclusive</th>
          </tr>
        </thead>
        <tbody>
          {FIELDS.map(({ metric, label, format }) => (
            <tr key={metric}>
              <th scope="row">{label}</th>
              <td className="num">
                <EstimateToActual estimate={format(figures.estimate.exclusive[metric])} actual={view.measuredIsActual ? format(figures.measured.exclusive[metric]) : undefined} />
              </td>
              <td className="num">
                <EstimateToActual estimate={format(figures.estimate.inclusive[metric])} actual={view.measuredIsActual ? format(figures.measured.inclusive[metric]) : undefined} />
              </td>
            </tr>
          ))}
          <tr>
            <th scope="row">Critical path</th>
            <td className="num muted">—</td>
            <td className="num">
              <EstimateToActual estimate={formatSeconds(figures.estimate.criticalPathSeconds)} actual={view.measuredIsActual ? formatSeconds(figures.measured.criticalPathSeconds) : undefined} />
            </td>
          </tr>
        </tbody>
      </table>
      <p className="muted small">Each cell reads estimate → actual. Inclusive counts {figures.measured.upstream} upstream node{figures.measured.upstream === 1 ? '' : 's'}.</p>

      <h3>Settings</h3>
      <NodeSettings view={view} />
    </aside>
  );
}
