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
import { TableScroll } from '@/components/layout/table-scroll';

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
        <TableScroll label="Recent runs">
          <table className="data-table" data-testid="plan-index">
            <thead>
              <tr>
                <th scope="col">Compare</th>
                <th scope="col">Started</th>
                <th scope="col">Goal</th>
                <th scope="col">Status</th>
                <th scope="col" className="num">Cost</th>
                <th scope="col" className="num">Latency</th>
              </tr>
            </thead>
            <tbody>
              {runs.data.length === 0 ? (
                <tr>
                  <td colSpan={6} className="muted">
                    No runs yet. Ask something in the Console.
                  </td>
                </tr>
              ) : (
                runs.data.map((run) => (
                  <tr key={run.id}>
                    <td>
                      <input type="checkbox" checked={picked.includes(run.id)} onChange={() => toggle(run.id)} aria-label={`Pick run ${run.id} to compare`} />
                    </td>
                    <td>{new Date(run.createdAt).toISOString().replace('T', ' ').slice(0, 19)}</td>
                    <td>
                      <Link href={`/plans/${encodeURIComponent(run.id)}`}>{run.goal}</Link>
                    </td>
                    <td>
                      <span className={`status status-${run.status}`}>{run.status.replace('_', ' ')}</span>
                    </td>
                    <td className="num">{formatUsd(run.costUsd)}</td>
                    <td className="num">{formatSeconds(run.latencySeconds)}</td>
                  </tr>
                ))
              )}
            </tbody>
          </table>
        </TableScroll>
      ) : null}
    </section>
  );
}
