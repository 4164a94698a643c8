'use client';
/**
 * /plans/compare?a=…&b=…: two runs' plans side by side (e.g. one goal under two budgets). A diff of
 * the choices and the estimated and actual totals, then both Execution Graphs, each explorable.
 */
import Link from 'next/link';
import { useCallback, useEffect, useId, useState } from 'react';
import { ErrorMessage } from '@/components/console/error-message';
import { MetricToggle } from './metric-toggle';
import { NodeDetailPanel } from './node-detail-panel';
import { diffPlans, type DiffRow } from './plan-diff';
import { PlanGraph } from './plan-graph';
import type { Metric } from './plan-metrics';
import { usePlanRun } from './use-plan-run';
import './plan-explorer.css';
import { DataTable, type ColumnList } from '@/components/ui/data-table';

function Side({ runId, side, metric }: { readonly runId: string; readonly side: 'A' | 'B'; readonly metric: Metric }) {
  const { query, shaped } = usePlanRun(runId);
  const [selectedId, setSelectedId] = useState<string>();
  const headingId = useId();
  const close = useCallback(() => setSelectedId(undefined), []);
  useEffect(() => {
    if (!selectedId) return;
    const onKey = (event: KeyboardEvent) => event.key === 'Escape' && close();
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [selectedId, close]);
  if (query.error) return <ErrorMessage error={query.error} />;
  if (!shaped) return <p className="muted">Loading plan {side}…</p>;
  const explain = shaped.run.explain;
  const selected = selectedId ? shaped.views.find((view) => view.node.id === selectedId) : undefined;
  return (
    // A region named by its heading ("Plan A: …"): the graph and the node panel it opens belong to one side.
    <div className="plan-compare-side" role="region" aria-labelledby={headingId} data-testid={`compare-side-${side}`}>
      <h3 id={headingId}>
        Plan {side}: <Link href={`/plans/${encodeURIComponent(runId)}`}>{explain.graph.nodes.length} nodes</Link> <span className="muted">· {explain.chosen.description}</span>
      </h3>
      <PlanGraph graph={explain.graph} views={shaped.views} metric={metric} selectedId={selectedId} onSelect={setSelectedId} label={`Execution graph of plan ${side}`} compact />
      {selected ? <NodeDetailPanel graph={explain.graph} views={shaped.views} view={selected} onClose={close} /> : null}
    </div>
  );
}

function diffColumns(a: string, b: string): ColumnList<DiffRow> {
  return [
    { key: 'what', header: 'What', rowHeader: true, cell: (row) => row.label },
    { key: 'a', header: <Link href={`/plans/${encodeURIComponent(a)}`}>Plan A</Link>, cell: (row) => row.a },
    { key: 'b', header: <Link href={`/plans/${encodeURIComponent(b)}`}>Plan B</Link>, cell: (row) => row.b },
    { key: 'change', header: 'B vs A', cellAttributes: (row) => ({ className: row.changed ? 'strong' : 'muted' }), cell: (row) => row.change },
  ];
}

export function PlanCompare({ a, b }: { readonly a: string; readonly b: string }) {
  const left = usePlanRun(a);
  const right = usePlanRun(b);
  const [metric, setMetric] = useState<Metric>('latencySeconds');
  if (!a || !b) return <p className="panel">Compare needs two run ids: <code>/plans/compare?a=&lt;runId&gt;&amp;b=&lt;runId&gt;</code>.</p>;
  const error = left.query.error ?? right.query.error;
  const rows = left.shaped && right.shaped ? diffPlans(left.shaped.run, right.shaped.run) : undefined;
  return (
    <div className="plans">
      <section className="panel plan-section" aria-labelledby="compare-title">
        <h1 id="compare-title">Compare plans</h1>
        {error ? <ErrorMessage error={error} /> : null}
        {rows ? (
          <DataTable
            rows={rows}
            columns={diffColumns(a, b)}
            rowKey={(row) => row.label}
            rowAttributes={(row) => ({ className: row.changed ? 'plan-diff-changed' : undefined, 'data-changed': row.changed || undefined })}
            className="plan-diff"
            testId="plan-diff"
            scrollLabel="Plan differences"
          />
        ) : error ? null : (
          <p className="muted">Loading both plans…</p>
        )}
      </section>
      <section className="panel plan-section" aria-labelledby="compare-graphs-title">
        <div className="plan-toolbar">
          <h2 id="compare-graphs-title">Execution graphs</h2>
          <MetricToggle value={metric} onChange={setMetric} />
        </div>
        <div className="plan-compare-grid">
          <Side runId={a} side="A" metric={metric} />
          <Side runId={b} side="B" metric={metric} />
        </div>
      </section>
    </div>
  );
}
