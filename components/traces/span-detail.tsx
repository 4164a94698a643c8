'use client';

/** The selected span's timing, spend and attributes, next to the waterfall. */
import type { Span } from '@/server/runtime/contracts/trace-sink';
import { formatAttribute, formatMs, formatTokens, formatUsd } from './trace-format';
import { DataTable, type ColumnList } from '@/components/ui/data-table';
import styles from './traces.module.css';

const ATTRIBUTE_COLUMNS: ColumnList<readonly [string, unknown]> = [
  { key: 'key', header: 'Attribute', rowHeader: true, cell: ([key]) => key },
  { key: 'value', header: 'Value', className: styles.attributeValue, cell: ([, value]) => formatAttribute(value) },
];

export function SpanDetail({ span, runStartMs }: { readonly span?: Span; readonly runStartMs: number }) {
  if (!span) {
    return (
      <aside className={styles.detail} aria-label="Span details" data-testid="span-detail">
        <p className="muted">Select a span (click, or Enter on a focused row) to see its attributes.</p>
      </aside>
    );
  }
  const attributes = Object.entries(span.attributes);
  return (
    <aside className={styles.detail} aria-label="Span details" aria-live="polite" data-testid="span-detail" data-span-id={span.id}>
      <h2 className={styles.detailTitle} data-testid="span-detail-name">
        {span.name}
      </h2>
      <dl className="facts">
        <dt>Category</dt>
        <dd>{span.category}</dd>
        <dt>Status</dt>
        <dd>
          <span className={`status ${span.status === 'error' ? 'status-failed' : 'status-completed'}`}>{span.status}</span>
        </dd>
        <dt>Starts at</dt>
        <dd>+{formatMs(Date.parse(span.startedAt) - runStartMs)}</dd>
        <dt>Duration</dt>
        <dd>{formatMs(span.durationMs)}</dd>
        <dt>Tokens</dt>
        <dd>{formatTokens(span.tokens)}</dd>
        <dt>Cost</dt>
        <dd>{formatUsd(span.costUsd)}</dd>
      </dl>
      <h3 className={styles.detailHeading}>Attributes</h3>
      {attributes.length === 0 ? (
        <p className="muted">None recorded.</p>
      ) : (
        <DataTable rows={attributes} columns={ATTRIBUTE_COLUMNS} rowKey={([key]) => key} headless testId="span-attributes" />
      )}
      <p className={styles.spanId}>
        <code>{span.id}</code>
      </p>
    </aside>
  );
}
