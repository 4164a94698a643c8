'use client';

import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useEffect } from 'react';
import { formatSeconds, formatUsd } from '@/components/explain/format';
import { useTRPC } from '@/components/providers/trpc-provider';
import type { RunSummary } from '@/server/runtime/contracts/run-store';
import styles from './console.module.css';

interface RunHistoryProps {
  readonly activeRunId?: string;
  /** Put the goal back in the form. */
  readonly onReuseGoal: (goal: string) => void;
  /** Show the finished run's answer on this page. */
  readonly onOpenRun: (runId: string) => void;
}

const TIME_FORMAT = new Intl.DateTimeFormat('en-GB', { dateStyle: 'short', timeStyle: 'short', timeZone: 'UTC' });

/** The signed-in user's recent goals, newest first. */
export function RunHistory({ activeRunId, onReuseGoal, onOpenRun }: RunHistoryProps) {
  const trpc = useTRPC();
  const history = useQuery(trpc.console.history.queryOptions({ limit: 15 }));
  const { refetch } = history;
  const listed = history.data?.some((run) => run.id === activeRunId) ?? true;
  useEffect(() => {
    // The run on screen just finished and is missing from the list fetched before it started.
    // Asked of the observer directly: an invalidation issued from the stream's callback was
    // measured not to refetch in Chromium (e2e console.spec), so the list kept the older runs.
    if (activeRunId && !listed) void refetch();
  }, [activeRunId, listed, refetch]);
  return (
    <aside className={`panel ${styles.history}`} aria-labelledby="history-heading" data-testid="history">
      <h2 id="history-heading">Your recent goals</h2>
      {history.isPending ? <p className="muted">Loading…</p> : null}
      {history.error ? <p className="muted">History unavailable: {history.error.message}</p> : null}
      {history.data && history.data.length === 0 ? <p className="muted">No runs yet. Your goals will appear here.</p> : null}
      {history.data && history.data.length > 0 ? (
        <ol className={styles.historyList} aria-label="Recent goals">
          {history.data.map((run) => (
            <HistoryItem key={run.id} run={run} active={run.id === activeRunId} onReuseGoal={onReuseGoal} onOpenRun={onOpenRun} />
          ))}
        </ol>
      ) : null}
    </aside>
  );
}

function HistoryItem({ run, active, onReuseGoal, onOpenRun }: { readonly run: RunSummary; readonly active: boolean } & Pick<RunHistoryProps, 'onReuseGoal' | 'onOpenRun'>) {
  return (
    <li className={`${styles.historyItem} ${active ? styles.historyActive : ''}`} data-testid="history-item" aria-current={active || undefined}>
      <button type="button" className={styles.historyGoal} title="Use this goal again" onClick={() => onReuseGoal(run.goal)}>
        {run.goal}
      </button>
      <div className={styles.historyMeta}>
        <span className={`status status-${run.status}`}>{run.status.replace('_', ' ')}</span>
        <span>{TIME_FORMAT.format(new Date(run.createdAt))}</span>
        <span>{formatUsd(run.costUsd)}</span>
        <span>{formatSeconds(run.latencySeconds)}</span>
      </div>
      <div className={styles.historyLinks}>
        <button type="button" className={styles.linkButton} onClick={() => onOpenRun(run.id)}>
          Show answer
        </button>
        <Link href={`/plans/${run.id}`}>Plan</Link>
      </div>
    </li>
  );
}
