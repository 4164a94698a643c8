import { formatSeconds, formatTokens, formatUsd } from '@/components/explain/format';
import styles from './console.module.css';
import { settledCount, type NodeProgressRow, type NodeProgressStatus, type RunProgressState } from './progress-state';

const STATUS_LABEL: Readonly<Record<NodeProgressStatus, string>> = {
  pending: 'Pending',
  running: 'Running',
  retrying: 'Retrying',
  done: 'Done',
  skipped: 'Skipped',
  failed: 'Failed',
};

/** Symbols beside the words, never instead of them: colour and glyph alone are not accessible. */
const STATUS_GLYPH: Readonly<Record<NodeProgressStatus, string>> = { pending: '○', running: '◔', retrying: '↻', done: '●', skipped: '–', failed: '✕' };

function ProgressRow({ row }: { readonly row: NodeProgressRow }) {
  return (
    <li className={`${styles.progressRow} ${styles[`status_${row.status}`]}`} data-testid="progress-item" data-node={row.nodeId} data-status={row.status}>
      <span className={styles.progressStatus}>
        <span aria-hidden="true">{STATUS_GLYPH[row.status]}</span> {STATUS_LABEL[row.status]}
      </span>
      <span className={styles.progressNode}>
        <code>{row.nodeId}</code> <span className={styles.kind}>{row.kind}</span>
        <span className={styles.progressDetail}>
          {row.detail}
          {row.models.length > 0 ? ` · ${row.models.join(', ')}` : ''}
          {row.attempts > 1 ? ` · attempt ${row.attempts}` : ''}
        </span>
        {row.note ? <span className={styles.progressNote}>{row.note}</span> : null}
      </span>
      <span className={styles.progressNumbers}>
        {row.actual ? (
          <>
            <span title="tokens">{formatTokens(row.actual.tokens)} tok</span>
            <span title="cost">{formatUsd(row.actual.costUsd)}</span>
            <span title="latency">{formatSeconds(row.actual.latencySeconds)}</span>
          </>
        ) : null}
      </span>
    </li>
  );
}

/**
 * While the run goes, the node list (height-capped, so a long plan scrolls inside it); once it has
 * ended, one folded line under the answer: the answer is what the reader came for.
 */
export function RunProgressList({
  progress,
  pending,
  onCancel,
  cancelling = false,
}: {
  readonly progress: RunProgressState;
  readonly pending: boolean;
  /** Offered while the run goes, to whoever may cancel it; the run's result then arrives as cancelled. */
  readonly onCancel?: () => void;
  readonly cancelling?: boolean;
}) {
  const total = progress.rows.length;
  const settled = settledCount(progress);
  const status = total === 0 ? (pending ? 'planning…' : '') : `${settled} of ${total} nodes${pending ? ' · running' : ''}`;
  const list =
    total > 0 ? (
      <ol className={`${styles.progressList} ${styles.progressScroll}`} aria-label="Nodes">
        {progress.rows.map((row) => (
          <ProgressRow key={row.nodeId} row={row} />
        ))}
      </ol>
    ) : (
      <p className="muted">Choosing a plan…</p>
    );
  if (!pending && total > 0) {
    return (
      <details className="panel" data-testid="progress">
        <summary className={styles.foldSummary}>
          <h2 id="progress-heading">Progress</h2>{' '}
          <span className="muted" data-testid="progress-status">
            {status}
          </span>
        </summary>
        {list}
      </details>
    );
  }
  return (
    <section className="panel" aria-labelledby="progress-heading" data-testid="progress">
      <h2 id="progress-heading">
        Progress{' '}
        <span className="muted" role="status" aria-live="polite" data-testid="progress-status">
          {status}
        </span>
      </h2>
      {pending && onCancel ? (
        <button type="button" onClick={onCancel} disabled={cancelling}>
          {cancelling ? 'Cancelling…' : 'Cancel run'}
        </button>
      ) : null}
      {list}
    </section>
  );
}
