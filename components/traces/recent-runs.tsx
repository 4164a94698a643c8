'use client';

import { useQuery } from '@tanstack/react-query';
import { useTRPC } from '@/components/providers/trpc-provider';
import { ErrorMessage } from '@/components/console/error-message';
import { formatSeconds, formatUsd } from '@/components/explain/format';

/** The most recent runs; the full trace explorer will hang off each run id. */
export function RecentRuns() {
  const trpc = useTRPC();
  const runs = useQuery(trpc.runtime.listRuns.queryOptions({ limit: 50 }));
  return (
    <section className="panel">
      <h1>Traces</h1>
      {runs.error ? <ErrorMessage error={runs.error} /> : null}
      {runs.isPending ? <p className="muted">Loading runs…</p> : null}
      {runs.data ? (
        <table className="data-table" data-testid="recent-runs">
          <thead>
            <tr>
              <th scope="col">Started</th>
              <th scope="col">Goal</th>
              <th scope="col">Status</th>
              <th scope="col">Plan</th>
              <th scope="col">User</th>
              <th scope="col" className="num">Cost</th>
              <th scope="col" className="num">Latency</th>
            </tr>
          </thead>
          <tbody>
            {runs.data.length === 0 ? (
              <tr>
                <td colSpan={7} className="muted">
                  No runs yet. Ask something in the Console.
                </td>
              </tr>
            ) : (
              runs.data.map((run) => (
                <tr key={run.id}>
                  <td>{new Date(run.createdAt).toISOString().replace('T', ' ').slice(0, 19)}</td>
                  <td>{run.goal}</td>
                  <td>
                    <span className={`status status-${run.status}`}>{run.status.replace('_', ' ')}</span>
                  </td>
                  <td>
                    <code>{run.planHash.slice(0, 12)}</code>
                  </td>
                  <td>{run.user}</td>
                  <td className="num">{formatUsd(run.costUsd)}</td>
                  <td className="num">{formatSeconds(run.latencySeconds)}</td>
                </tr>
              ))
            )}
          </tbody>
        </table>
      ) : null}
    </section>
  );
}
