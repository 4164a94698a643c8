'use client';

import { useQuery } from '@tanstack/react-query';
import { ErrorMessage } from '@/components/console/error-message';
import { useTRPC } from '@/components/providers/trpc-provider';
import { DataTable, type ColumnList } from '@/components/ui/data-table';

/** What the table reads of an arm (learning.arms returns more). */
interface ArmRow {
  readonly arm: string;
  readonly pulls: number;
  readonly meanReward: number | null;
  readonly estimate: { readonly upper: number };
}

const ARM_COLUMNS: ColumnList<ArmRow> = [
  { key: 'arm', header: 'Arm', cell: (arm) => <code>{arm.arm}</code> },
  { key: 'pulls', header: 'Pulls', numeric: true, cell: (arm) => arm.pulls },
  { key: 'mean', header: 'Mean reward', numeric: true, cell: (arm) => (arm.meanReward === null ? '—' : arm.meanReward.toFixed(3)) },
  { key: 'upper', header: 'Upper bound', numeric: true, cell: (arm) => arm.estimate.upper.toFixed(3) },
];

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
            <DataTable rows={[...arms.data.arms].sort((left, right) => right.pulls - left.pulls)} columns={ARM_COLUMNS} rowKey={(arm) => arm.arm} scrollLabel="Bandit arms" />
          )}
        </>
      ) : null}
    </section>
  );
}
