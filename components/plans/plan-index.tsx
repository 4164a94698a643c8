'use client';
/**
 * /plans: recent runs, each linking to its plan; pick two to compare them side by side.
 */
import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useState } from 'react';
import { ErrorMessage } from '@/components/console/error-message';
import { formatSeconds, formatUsd } from '@/components/explain/format';
import { useTRPC } from '@/components/providers/trpc-provider';
import './plan-explorer.css';
import { DataTable, type ColumnList } from '@/components/ui/data-table';
import type { RunSummary } from '@/server/runtime/contracts/run-store';

function runColumns(picked: readonly string[], toggle: (id: string) => void): ColumnList<RunSummary> {
  return [
    { key: 'compare', header: 'Compare', cell: (run) => <input type="checkbox" checked={picked.includes(run.id)} onChange={() => toggle(run.id)} aria-label={`Pick run ${run.id} to compare`} /> },
    { key: 'started', header: 'Started', cell: (run) => new Date(run.createdAt).toISOString().replace('T', ' ').slice(0, 19) },
    { key: 'goal', header: 'Goal', cell: (run) => <Link href={`/plans/${encodeURIComponent(run.id)}`}>{run.goal}</Link> },
    { key: 'status', header: 'Status', cell: (run) => <span className={`status status-${run.status}`}>{run.status.replace('_', ' ')}</span> },
    { key: 'cost', header: 'Cost', numeric: true, cell: (run) => formatUsd(run.costUsd) },
    { key: 'latency', header: 'Latency', numeric: true, cell: (run) => formatSeconds(run.latencySeconds) },
  ];
}

export function PlanIndex() {
  const trpc = useTRPC();
  const runs = useQuery(trpc.runtime.listRuns.queryOptions({ limit: 50 }));
  const [picked, setPicked] = useState<readonly string[]>([]);
  const toggle = (id: string) => setPicked((current) => (current.includes(id) ? current.filter((entry) => entry !== id) : [...current, id].slice(-2)));
  return (
    <section className="panel plan-section" aria-labelledby="plans-title">
      <div className="plan-toolbar">
        <h1 id="plans-title">Plans</h1>
        {picked.length === 2 ? (
          <Link className="button-link" href={`/plans/compare?a=${encodeURIComponent(picked[0])}&b=${encodeURIComponent(picked[1])}`} data-testid="compare-picked">
            Compare the two picked plans
          </Link>
        ) : (
          <span className="muted small">Pick two runs to compare their plans.</span>
        )}
      </div>
      {runs.error ? <ErrorMessage error={runs.error} /> : null}
      {runs.isPending ? <p className="muted">Loading runs…</p> : null}
      {runs.data ? (
        <DataTable
          rows={runs.data}
          columns={runColumns(picked, toggle)}
          rowKey={(run) => run.id}
          testId="plan-index"
          scrollLabel="Recent runs"
          empty="No runs yet. Ask something in the Console."
        />
      ) : null}
    </section>
  );
}
