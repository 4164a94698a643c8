import type { ReactNode } from 'react';
import type { RunResult } from '@/server/runtime/explain/explain-types';
import { banditText, estimatorText } from '@/components/explain/decided-by';
import { formatRatio, formatSeconds, formatTokens, formatUsd } from '@/components/explain/format';
import { readMisestimate, type MisestimateReading } from './misestimate-scale';
import { DataTable, type ColumnList } from '@/components/ui/data-table';

const TOTALS = [
  { key: 'costUsd', label: 'Cost', format: formatUsd },
  { key: 'latencySeconds', label: 'Latency', format: formatSeconds },
  { key: 'tokens', label: 'Model tokens', format: formatTokens },
] as const;

interface TotalRow {
  readonly label: string;
  readonly planned: string;
  readonly interval: string;
  readonly actual: ReactNode;
  /** Absent: a figure with no misestimate to read (a dash); null: one that has none by nature (accuracy). */
  readonly reading?: MisestimateReading | null;
}

const NOT_RUN = <span className="muted">not run</span>;
const DASH = <span className="muted">—</span>;

/** Cost, latency and tokens estimated vs actual, then accuracy against what verification found. */
function totalRows(run: RunResult): readonly TotalRow[] {
  const { estimates, analyze } = run.explain;
  const totals = analyze?.totals;
  const rows = TOTALS.map(({ key, label, format }): TotalRow => ({
    label,
    // With actuals, compare like with like: the sum of node estimates the misestimate is computed from.
    planned: format(totals ? totals.estimate[key] : estimates[key].value),
    interval: `${format(estimates[key].low)} – ${format(estimates[key].high)}`,
    actual: totals ? format(totals.actual[key]) : NOT_RUN,
    reading: readMisestimate(totals?.misestimate?.[key]),
  }));
  const verified = run.verification ? (run.verification.passed ? 'verified' : 'failed verification') : DASH;
  const accuracy = estimates.accuracy;
  return [...rows, { label: 'Accuracy', planned: formatRatio(accuracy.value), interval: `${formatRatio(accuracy.low)} – ${formatRatio(accuracy.high)}`, actual: verified, reading: null }];
}

const TOTAL_COLUMNS: ColumnList<TotalRow> = [
  { key: 'label', header: 'Plan total', rowHeader: true, cell: (row) => row.label },
  { key: 'planned', header: 'Estimate', numeric: true, cell: (row) => row.planned },
  { key: 'interval', header: 'Candidate interval', headerTitle: "the chosen candidate's estimate interval", numeric: true, className: 'muted', cell: (row) => row.interval },
  { key: 'actual', header: 'Actual', numeric: true, cell: (row) => row.actual },
  { key: 'misestimate', header: 'Misestimate', cellAttributes: (row) => ({ className: row.reading?.className }), cell: (row) => (row.reading === null ? null : (row.reading?.text ?? DASH)) },
];

/** The run's headline: goal, status, the chosen plan, and the plan's totals estimated vs actual. */
export function PlanSummary({ run, actions }: { readonly run: RunResult; readonly actions?: ReactNode }) {
  const explain = run.explain;
  const bandit = banditText(explain);
  return (
    <section className="panel plan-section" aria-labelledby="plan-title" data-testid="plan-summary">
      <div className="plan-title-row">
        <div>
          <h1 id="plan-title">{explain.goal}</h1>
          <p className="plan-meta">
            <span className={`status status-${run.status}`} data-testid="run-status">
              {run.status.replace('_', ' ')}
            </span>{' '}
            plan <code data-testid="plan-hash">{explain.planHash.slice(0, 16)}</code> · run <code>{run.runId}</code> · intent <strong>{explain.intent.primary}</strong> · plan cache{' '}
            <span className={`badge cache-${explain.planCache.status}`}>{explain.planCache.status}</span> · planned in {formatSeconds(explain.planningMs / 1000)}
            {explain.edited ? (
              <>
                {' '}
                · <span className="badge hot" data-testid="edited-badge">edited plan</span> (from <code>{explain.edited.basePlanHash.slice(0, 12)}</code>)
              </>
            ) : null}
          </p>
        </div>
      </div>
      <p className="plan-description" data-testid="chosen-plan">
        <span className="badge chosen-badge">chosen</span> {explain.chosen.description}
      </p>
      <p className="muted small" data-testid="plan-decided-by">
        Estimator: {estimatorText(explain)}
        {bandit ? <> · Learning: {bandit}</> : null}
      </p>
      {run.error ? <p className="error-message">{run.error}</p> : null}
      <DataTable rows={totalRows(run)} columns={TOTAL_COLUMNS} rowKey={(row) => row.label} className="plan-totals" testId="plan-totals" scrollLabel="Plan totals" />
      {actions}
      <p className="muted small">Plan totals count model tokens on the reason node only (retrieval token figures are evidence sizes). Estimates are the sum of node estimates; latency totals are sums of node time, not wall-clock.</p>
    </section>
  );
}
