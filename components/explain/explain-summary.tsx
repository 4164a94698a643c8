import type { ExplainResult } from '@/server/runtime/explain/explain-types';
import type { Estimate } from '@/server/runtime/types';
import { ExplainSection } from './explain-section';
import { formatRatio, formatSeconds, formatTokens, formatUsd } from './format';
import './explain.css';
import { TableScroll } from '@/components/layout/table-scroll';

const ESTIMATE_ROWS: readonly { readonly label: string; readonly pick: (explain: ExplainResult) => Estimate; readonly format: (value: number) => string }[] = [
  { label: 'Cost', pick: (explain) => explain.estimates.costUsd, format: formatUsd },
  { label: 'Latency', pick: (explain) => explain.estimates.latencySeconds, format: formatSeconds },
  { label: 'Tokens', pick: (explain) => explain.estimates.tokens, format: formatTokens },
  { label: 'Accuracy', pick: (explain) => explain.estimates.accuracy, format: formatRatio },
];

export function ExplainSummary({ explain }: { readonly explain: ExplainResult }) {
  const { intent, planCache, verificationPlan } = explain;
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
        <TableScroll label="Plan estimates">
          <table className="data-table estimates" aria-label="Plan estimates">
            <thead>
              <tr>
                <th scope="col">Estimate</th>
                <th scope="col" className="num">Expected</th>
                <th scope="col" className="num estimate-interval">
                  Interval <span className="weight">p05 – p95</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {ESTIMATE_ROWS.map((row) => {
                const estimate = row.pick(explain);
                return (
                  <tr key={row.label}>
                    <th scope="row">{row.label}</th>
                    <td className="num">{row.format(estimate.value)}</td>
                    <td className="num estimate-interval">
                      {row.format(estimate.low)} –<wbr /> {row.format(estimate.high)}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </TableScroll>
      </div>
    </ExplainSection>
  );
}
