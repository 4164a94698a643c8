import type { ExplainResult } from '@/server/runtime/explain/explain-types';
import type { Estimate } from '@/server/runtime/types';
import { banditText, estimatorText } from './decided-by';
import { ExplainSection } from './explain-section';
import { formatRatio, formatSeconds, formatTokens, formatUsd } from './format';
import './explain.css';
import { DataTable, type ColumnList } from '@/components/ui/data-table';

const ESTIMATE_ROWS: readonly { readonly label: string; readonly pick: (explain: ExplainResult) => Estimate; readonly format: (value: number) => string }[] = [
  { label: 'Cost', pick: (explain) => explain.estimates.costUsd, format: formatUsd },
  { label: 'Latency', pick: (explain) => explain.estimates.latencySeconds, format: formatSeconds },
  { label: 'Tokens', pick: (explain) => explain.estimates.tokens, format: formatTokens },
  { label: 'Accuracy', pick: (explain) => explain.estimates.accuracy, format: formatRatio },
];

interface EstimateRow {
  readonly label: string;
  readonly estimate: Estimate;
  readonly format: (value: number) => string;
}

const ESTIMATE_COLUMNS: ColumnList<EstimateRow> = [
  { key: 'label', header: 'Estimate', cell: (row) => row.label, rowHeader: true },
  { key: 'expected', header: 'Expected', cell: (row) => row.format(row.estimate.value), numeric: true },
  {
    key: 'interval',
    header: (
      <>
        Interval <span className="weight">p05 – p95</span>
      </>
    ),
    cell: (row) => (
      <>
        {row.format(row.estimate.low)} –<wbr /> {row.format(row.estimate.high)}
      </>
    ),
    numeric: true,
    wrap: true,
  },
];

export function ExplainSummary({ explain }: { readonly explain: ExplainResult }) {
  const { intent, planCache, verificationPlan } = explain;
  const bandit = banditText(explain);
  const estimates = ESTIMATE_ROWS.map((row): EstimateRow => ({ label: row.label, estimate: row.pick(explain), format: row.format }));
  return (
    <ExplainSection title="Summary">
      <div className="summary-grid explain-summary-grid" data-testid="explain-summary">
        <dl className="facts">
          <dt>Plan hash</dt>
          <dd>
            <code data-testid="plan-hash">{explain.planHash}</code>
          </dd>
          <dt>Intent</dt>
          <dd>
            <strong>{intent.primary}</strong>
            {intent.classes.length > 1 ? <span className="muted"> (also {intent.classes.filter((name) => name !== intent.primary).join(', ')})</span> : null}
          </dd>
          <dt>Entities</dt>
          <dd>{intent.entities.length > 0 ? intent.entities.join(', ') : <span className="muted">none</span>}</dd>
          {intent.identifiers.length > 0 ? (
            <>
              <dt>Identifiers</dt>
              <dd>{intent.identifiers.map((identifier) => `${identifier.kind}: ${identifier.value}`).join(', ')}</dd>
            </>
          ) : null}
          <dt>Plan cache</dt>
          <dd>
            <span className={`badge cache-${planCache.status}`} data-testid="plan-cache">
              {planCache.status}
            </span>
          </dd>
          <dt>Planning</dt>
          <dd>
            {explain.planningMs.toFixed(1)} ms · {explain.enumerated} candidates enumerated · cost model {explain.costModel.version}
          </dd>
          <dt>Estimator</dt>
          <dd data-testid="plan-estimator">{estimatorText(explain)}</dd>
          {bandit ? (
            <>
              <dt>Learning</dt>
              <dd data-testid="plan-learning">{bandit}</dd>
            </>
          ) : null}
          <dt>Sources</dt>
          <dd>{explain.selectedSources.length > 0 ? explain.selectedSources.join(', ') : <span className="muted">none selected</span>}</dd>
          <dt>Verification</dt>
          <dd>
            {verificationPlan.method}
            {verificationPlan.requireCitations ? ' · citations required' : ''}
            {verificationPlan.approval ? ' · human approval' : ''}
            {verificationPlan.reasons.length > 0 ? <span className="muted"> — {verificationPlan.reasons.join('; ')}</span> : null}
          </dd>
        </dl>
        {/* Its own scroll box, and an interval that may break at its dash: in the summary's narrow
            column the nowrap cells pushed the table out of its card at 1,280 and 1,024 px (issue 10). */}
        <DataTable rows={estimates} columns={ESTIMATE_COLUMNS} rowKey={(row) => row.label} label="Plan estimates" className="estimates" scrollLabel="Plan estimates" />
      </div>
    </ExplainSection>
  );
}
