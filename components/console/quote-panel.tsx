import { formatInterval, formatRatio, formatSeconds, formatTokens } from '@/components/explain/format';
import type { SimulateResult } from '@/server/runtime/explain/explain-types';
import type { Estimate } from '@/server/runtime/types';
import { DataTable, type ColumnList } from '@/components/ui/data-table';
import styles from './console.module.css';
import { checkCaps, describeFit, formatQuoteUsd } from './quote-fit';

const ROWS: readonly { readonly label: string; readonly pick: (quote: SimulateResult) => Estimate; readonly format: (value: number) => string; readonly testId: string }[] = [
  { label: 'Cost', pick: (quote) => quote.expected.costUsd, format: formatQuoteUsd, testId: 'quote-cost' },
  { label: 'Latency', pick: (quote) => quote.expected.latencySeconds, format: formatSeconds, testId: 'quote-latency' },
  { label: 'Tokens', pick: (quote) => quote.expected.tokens, format: formatTokens, testId: 'quote-tokens' },
  { label: 'Confidence', pick: (quote) => quote.expectedConfidence, format: formatRatio, testId: 'quote-confidence' },
];

type QuoteRow = (typeof ROWS)[number];

const quoteColumns = (quote: SimulateResult): ColumnList<QuoteRow> => [
  { key: 'label', header: 'Expected', rowHeader: true, cell: (row) => row.label },
  { key: 'likely', header: 'Most likely', numeric: true, className: 'strong', cell: (row) => row.format(row.pick(quote).value) },
  { key: 'interval', header: 'Interval (p05 – p95)', numeric: true, cell: (row) => formatInterval(row.pick(quote), row.format) },
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
      <DataTable rows={ROWS} columns={quoteColumns(quote)} rowKey={(row) => row.label} rowAttributes={(row) => ({ 'data-testid': row.testId })} className={styles.quoteTable} />
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
