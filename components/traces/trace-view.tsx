'use client';

/** One run's trace: headline, totals, and its spans as a waterfall; the plan page is one link away. */
import Link from 'next/link';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useTRPC } from '@/components/providers/trpc-provider';
import { ErrorMessage } from '@/components/console/error-message';
import { SpanWaterfall } from './span-waterfall';
import { formatTokens, formatUsd, STATUS_LABEL } from './trace-format';
import styles from './traces.module.css';

const CATEGORIES: readonly { readonly name: string; readonly label: string }[] = [
  { name: 'planner', label: 'planner' },
  { name: 'run', label: 'run' },
  { name: 'node', label: 'graph node' },
  { name: 'retrieval', label: 'source search' },
  { name: 'model', label: 'model call' },
];

export function TraceView({ runId }: { readonly runId: string }) {
  const trpc = useTRPC();
  // A run still executing gains spans as it goes; a finished one never changes.
  const trace = useQuery(trpc.traces.get.queryOptions({ runId }, { staleTime: 60_000, refetchInterval: (query) => (query.state.data?.run.status === 'running' ? 3_000 : false) }));
  const totals = useMemo(() => {
    // Run spans carry the run's measured totals; a resumed run has one per execution segment.
    const runSpans = trace.data?.spans.filter((span) => span.category === 'run') ?? [];
    return {
      tokens: runSpans.reduce((sum, span) => sum + span.tokens, 0),
      costUsd: runSpans.reduce((sum, span) => sum + span.costUsd, 0),
      errors: trace.data?.spans.filter((span) => span.status === 'error').length ?? 0,
    };
  }, [trace.data]);

  return (
    <div className={styles.stack}>
      <section className="panel">
        <p className={styles.breadcrumb}>
          <Link href="/traces">← All traces</Link>
        </p>
        {trace.error ? <ErrorMessage error={trace.error} /> : null}
        {trace.isPending ? <p className="muted">Loading trace…</p> : null}
        {trace.data ? (
          <>
            <div className={styles.header}>
              <h1 data-testid="trace-goal">{trace.data.run.goal}</h1>
              <nav className={styles.links} aria-label="Run">
                <Link href={`/plans/${encodeURIComponent(runId)}`} data-testid="plan-link">
                  Open plan
                </Link>
                {trace.data.run.status === 'awaiting_approval' ? <Link href="/approvals">Decide in Approvals</Link> : null}
              </nav>
            </div>
            <dl className="facts inline" style={{ marginTop: '0.75rem' }}>
              <div>
                <dt>Status</dt>
                <dd>
                  <span className={`status status-${trace.data.run.status}`} data-testid="trace-status">
                    {STATUS_LABEL[trace.data.run.status] ?? trace.data.run.status}
                  </span>
                </dd>
              </div>
              <div>
                <dt>Spans</dt>
                <dd>{formatTokens(trace.data.spans.length)}</dd>
              </div>
              <div>
                <dt>Graph nodes</dt>
                <dd>{formatTokens(trace.data.run.nodes)}</dd>
              </div>
              <div>
                <dt>Tokens</dt>
                <dd>{formatTokens(totals.tokens)}</dd>
              </div>
              <div>
                <dt>Cost</dt>
                <dd>{formatUsd(totals.costUsd)}</dd>
              </div>
              <div>
                <dt>Errors</dt>
                <dd>{totals.errors}</dd>
              </div>
              <div>
                <dt>Plan</dt>
                <dd>
                  <code>{trace.data.run.planHash.slice(0, 12)}</code>
                </dd>
              </div>
              <div>
                <dt>Run</dt>
                <dd>
                  <code>{runId}</code>
                </dd>
              </div>
            </dl>
            {trace.data.run.error ? <p className="error-message">{trace.data.run.error}</p> : null}
            {trace.data.run.pendingApproval ? (
              <p className="notice warning">
                Waiting for approval at <code>{trace.data.run.pendingApproval.nodeId}</code>: {trace.data.run.pendingApproval.reason}
              </p>
            ) : null}
          </>
        ) : null}
      </section>
      {trace.data ? (
        <section className="panel" aria-labelledby="waterfall-heading">
          <h2 id="waterfall-heading">Waterfall</h2>
          {trace.data.spans.length === 0 ? (
            <p className="muted">This run recorded no spans.</p>
          ) : (
            <>
              <SpanWaterfall spans={trace.data.spans} />
              <ul className={styles.legend} aria-label="Bar colours">
                {CATEGORIES.map((category) => (
                  <li key={category.name}>
                    <span className={`${styles.swatch} ${styles[`category-${category.name}`]}`} /> {category.label}
                  </li>
                ))}
                <li>
                  <span className={`${styles.swatch} ${styles.barError}`} /> error
                </li>
              </ul>
              <p className="hint">Bars sit on the run&apos;s own time axis, from its first span; every duration was measured, none is estimated.</p>
            </>
          )}
        </section>
      ) : null}
    </div>
  );
}
