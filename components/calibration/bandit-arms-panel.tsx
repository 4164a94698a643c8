'use client';

import { useQuery } from '@tanstack/react-query';
import { ErrorMessage } from '@/components/console/error-message';
import { useTRPC } from '@/components/providers/trpc-provider';
import { TableScroll } from '@/components/layout/table-scroll';

/** The bandit's arms (procedure learning.arms): pulls and mean reward, most pulled first. */
export function BanditArmsPanel() {
  const trpc = useTRPC();
  const arms = useQuery(trpc.learning.arms.queryOptions());
  return (
    <section className="panel" data-testid="bandit-arms">
      <h2>Bandit arms</h2>
      {arms.error ? <ErrorMessage error={arms.error} /> : null}
      {arms.isPending ? <p className="muted">Loading arms…</p> : null}
      {arms.data ? (
        <>
          <p className="muted">
            Policy <code>{arms.data.policy}</code>, {arms.data.enabled ? 'learning' : 'disabled'} (α = {arms.data.alpha}, top {arms.data.topKArms} arms re-ranked).
          </p>
          {arms.data.arms.length === 0 ? (
            <p className="muted">No arm has been pulled yet.</p>
          ) : (
            <TableScroll label="Bandit arms">
              <table className="data-table">
                <thead>
                  <tr>
                    <th scope="col">Arm</th>
                    <th scope="col" className="num">Pulls</th>
                    <th scope="col" className="num">Mean reward</th>
                    <th scope="col" className="num">Upper bound</th>
                  </tr>
                </thead>
                <tbody>
                  {[...arms.data.arms]
                    .sort((left, right) => right.pulls - left.pulls)
                    .map((arm) => (
                      <tr key={arm.arm}>
                        <td>
                          <code>{arm.arm}</code>
                        </td>
                        <td className="num">{arm.pulls}</td>
                        <td className="num">{arm.meanReward === null ? '—' : arm.meanReward.toFixed(3)}</td>
                        <td className="num">{arm.estimate.upper.toFixed(3)}</td>
                      </tr>
                    ))}
                </tbody>
              </table>
            </TableScroll>
          )}
        </>
      ) : null}
    </section>
  );
}
