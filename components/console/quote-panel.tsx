import { formatInterval, formatRatio, formatSeconds, formatTokens } from '@/components/explain/format';
import type { SimulateResult } from '@/server/runtime/explain/explain-types';
import type { Estimate } from '@/server/runtime/types';
import styles from './console.module.css';
import { checkCaps, describeFit, formatQuoteUsd } from './quote-fit';

const ROWS: readonly { readonly label: string; readonly pick: (quote: SimulateResult) => Estimate; readonly format: (value: number) => string; readonly testId: string }[] = [
  { label: 'Cost', pick: (quote) => quote.expected.costUsd, format: formatQuoteUsd, testId: 'quote-cost' },
  { label: 'Latency', pick: (quote) => quote.expected.latencySeconds, format: formatSeconds, testId: 'quote-latency' },
  { label: 'Tokens', pick: (quote) => quote.expected.tokens, format: formatTokens, testId: 'quote-tokens' },
  { label: 'Confidence', pick: (quote) => quote.expectedConfidence, format: formatRatio, testId: 'quote-confidence' },
];

interface QuotePanelProps {
  readonly quote: SimulateResult;
  /** Runs exactly the request that was quoted; absent for a user who may not run goals. */
  readonly onRunPlan?: () => void;
  readonly busy?: boolean;
}

/** What the chosen plan is expected to cost before anything runs ("quote before run"), judged against the caps. */
export function QuotePanel({ quote, onRunPlan, busy }: QuotePanelProps) {
  const samples = quote.basedOnSamples;
  const checks = checkCaps(quote.expected, quote.constraints);
  return (
    <section className="panel" aria-labelledby="quote-heading" data-testid="quote">
      <h2 id="quote-heading">
        Quote <span className="muted">before running</span>
      </h2>
      <ul className={styles.quoteFits} aria-label="Against your caps">
        {checks.length === 0 ? <li className="muted">No cost, latency or token cap is set, so any quote fits.</li> : null}
        {checks.map((check) => (
          <li key={check.label} className={styles[`fit_${check.fit}`]} data-fit={check.fit}>
            {describeFit(check)}
          </li>
        ))}
      </ul>
      <table className={`data-table ${styles.quoteTable}`}>
        <thead>
          <tr>
            <th scope="col">Expected</th>
            <th scope="col" className="num">
              Most likely
            </th>
            <th scope="col" className="num">
              Interval (p05 – p95)
            </th>
          </tr>
        </thead>
        <tbody>
          {ROWS.map((row) => {
            const estimate = row.pick(quote);
            return (
              <tr key={row.label} data-testid={row.testId}>
                <th scope="row">{row.label}</th>
                <td className="num strong">{row.format(estimate.value)}</td>
                <td className="num">{formatInterval(estimate, row.format)}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <p className={styles.quoteFooter}>
        <span data-testid="quote-samples">
          Based on <strong>{samples.toLocaleString('en-US')}</strong> past {samples === 1 ? 'run' : 'runs'}
          {samples === 0 ? ' — prior estimates only, so the intervals are wide' : ''}.
        </span>{' '}
        Models: {quote.expectedModels.join(', ') || '—'} · Retrieval: {quote.expectedRetrieval.join(', ') || '—'} · Plan hash{' '}
        <code data-testid="quote-plan-hash">{quote.planHash}</code>
      </p>
      {onRunPlan ? (
        <p className="actions">
          <button type="button" className="primary" disabled={busy} onClick={onRunPlan}>
            Run this plan
          </button>
        </p>
      ) : null}
    </section>
  );
}
