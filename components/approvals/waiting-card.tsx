'use client';

/**
 * The asker's view of their own run paused at a gate: read-only. Why it waits, who may decide, the
 * plan around the gate and what it has cost so far — but not the drafted answer, which an approver
 * releases (or not). Deciding stays the approver's; this card has no buttons.
 */
import Link from 'next/link';
import { useId } from 'react';
import type { WaitingRun } from '@/server/runtime';
import { formatSeconds, formatUsd } from '@/components/explain/format';
import { formatTimestamp } from '@/components/traces/trace-format';
import { GatePlan } from './gate-plan';
import { GateWhy } from './gate-why';
import { runAnchor } from './run-anchor';
import styles from './approvals.module.css';

export function WaitingCard({ item, linked = false }: { readonly item: WaitingRun; readonly linked?: boolean }) {
  const id = useId();
  const { run, gate, why, after, spent } = item;
  const explain = run.explain;
  return (
    <article
      id={runAnchor(run.runId)}
      className={`panel ${styles.card}${linked ? ` ${styles.linked}` : ''}`}
      data-run-id={run.runId}
      aria-labelledby={`${id}-goal ${id}-run`}
      aria-current={linked || undefined}
      tabIndex={-1}
    >
      <header className={styles.cardHeader}>
        <h2 id={`${id}-goal`} className={styles.goal}>
          {explain.goal}
        </h2>
        <p className={styles.meta}>
          <span id={`${id}-run`}>run {run.runId}</span> · waiting since {formatTimestamp(item.waitingSince)} ·{' '}
          <Link href={`/traces/${encodeURIComponent(run.runId)}`}>trace</Link> · <Link href={`/plans/${encodeURIComponent(run.runId)}`}>plan</Link>
        </p>
      </header>
      <p className={`notice warning ${styles.waitingNote}`} role="status">
        <span className="status status-awaiting_approval">Waiting for an approver</span> Gate <code>{gate.nodeId}</code> needs someone with the <strong>{gate.approverRole}</strong> role.{' '}
        {item.draftWithheld ? 'Your answer is drafted and will be shown to you once it is approved.' : 'Approving runs the rest of the plan.'}
        {after.length > 0 ? ` Still to run after approval: ${after.join(', ')}.` : ''} You can follow it here; deciding is not yours to do.
      </p>
      <div className={styles.columns}>
        <GateWhy gate={gate} why={why} />
        <section aria-label="Spent so far">
          <h3>Spent so far</h3>
          <dl className="facts inline">
            <div>
              <dt>Cost</dt>
              <dd>{formatUsd(spent.costUsd)}</dd>
            </div>
            <div>
              <dt>Time</dt>
              <dd>{formatSeconds(spent.latencySeconds)}</dd>
            </div>
          </dl>
        </section>
      </div>
      <section aria-label="Plan around the gate">
        <h3>Plan around the gate</h3>
        <GatePlan nodes={explain.graph.nodes} analyzed={explain.analyze?.nodes ?? []} gateId={gate.nodeId} after={after} />
      </section>
    </article>
  );
}
