import { formatInterval, formatRatio, formatSeconds, formatTokens, formatUsd } from '@/components/explain/format';
import type { SimulateResult } from '@/server/runtime/explain/explain-types';
import type { Estimate } from '@/server/runtime/types';
import styles from './console.module.css';

const ROWS: readonly { readonly label: string; readonly pick: (quote: SimulateResult) => Estimate; readonly format: (value: number) => string; readonly testId: string }[] = [
  { label: 'Cost', pick: (quote) => quote.expected.costUsd, format: formatUsd, testId: 'quote-cost' },
  { label: 'Latency', pick: (quote) => quote.expected.latencySeconds, format: formatSeconds, testId: 'quote-latency' },
  { label: 'Tokens', pick: (quote) => quote.expected.tokens, format: formatTokens, testId: 'quote-tokens' },
  { label: 'Confidence', pick: (quote) => quote.expectedConfidence, format: formatRatio, testId: 'quote-confidence' },
];

/** What the chosen plan is expected to cost before anything runs ("quote before run"). */
export function QuotePanel({ quote }: { readonly quote: SimulateResult }) {
  const samples = quote.basedOnSamples;
  return (
    <section className="panel" aria-labelledby="quote-heading" data-testid="quote">
      <h2 id="quote-heading">
        Quote <span className="muted">before running</span>
      </h2>
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
        Models: {quote.expectedModels.join(', ') || '—'} · Retrieval: {quote.expectedRetrieval.join(', ') || '—'} · Plan <code>{quote.planHash.slice(0, 12)}</code>
      </p>
    </section>
  );
}
