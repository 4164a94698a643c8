import type { ReactNode } from 'react';
import type { RunResult } from '@/server/runtime/explain/explain-types';
import { formatRatio, formatSeconds, formatTokens, formatUsd } from '@/components/explain/format';
import { readMisestimate } from './misestimate-scale';
import { TableScroll } from '@/components/layout/table-scroll';

const TOTALS = [
  { key: 'costUsd', label: 'Cost', format: formatUsd },
  { key: 'latencySeconds', label: 'Latency', format: formatSeconds },
  { key: 'tokens', label: 'Model tokens', format: formatTokens },
] as const;

/** The run's headline: goal, status, the chosen plan, and the plan's totals estimated vs actual. */
export function PlanSummary({ run, actions }: { readonly run: RunResult; readonly actions?: ReactNode }) {
  const explain = run.explain;
  const totals = explain.analyze?.totals;
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
      {run.error ? <p className="error-message">{run.error}</p> : null}
      <TableScroll label="Plan totals">
        <table className="data-table compact plan-totals" data-testid="plan-totals">
          <thead>
            <tr>
              <th scope="col">Plan total</th>
              <th scope="col" className="num">Estimate</th>
              <th scope="col" className="num" title="the chosen candidate's estimate interval">
                Candidate interval
              </th>
              <th scope="col" className="num">Actual</th>
              <th scope="col">Misestimate</th>
            </tr>
          </thead>
          <tbody>
            {TOTALS.map(({ key, label, format }) => {
              const estimate = explain.estimates[key];
              // With actuals, compare like with like: the sum of node estimates the misestimate is computed from.
              const planned = totals ? totals.estimate[key] : estimate.value;
              const reading = readMisestimate(totals?.misestimate?.[key]);
              return (
                <tr key={key}>
                  <th scope="row">{label}</th>
                  <td className="num">{format(planned)}</td>
                  <td className="num muted">
                    {format(estimate.low)} – {format(estimate.high)}
                  </td>
                  <td className="num">{totals ? format(totals.actual[key]) : <span className="muted">not run</span>}</td>
                  <td className={reading?.className}>{reading?.text ?? <span className="muted">—</span>}</td>
                </tr>
              );
            })}
            <tr>
              <th scope="row">Accuracy</th>
              <td className="num">{formatRatio(explain.estimates.accuracy.value)}</td>
              <td className="num muted">
                {formatRatio(explain.estimates.accuracy.low)} – {formatRatio(explain.estimates.accuracy.high)}
              </td>
              <td className="num">{run.verification ? (run.verification.passed ? 'verified' : 'failed verification') : <span className="muted">—</span>}</td>
              <td />
            </tr>
          </tbody>
        </table>
      </TableScroll>
      {actions}
      <p className="muted small">Plan totals count model tokens on the reason node only (retrieval token figures are evidence sizes). Estimates are the sum of node estimates; latency totals are sums of node time, not wall-clock.</p>
    </section>
  );
}
