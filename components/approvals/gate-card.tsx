'use client';

/**
 * The frame both approval cards share: the run's goal and links, the anchor `/approvals?run=` points
 * at, and the plan around the gate. The approver's card (pending-card) and the asker's read-only one
 * (waiting-card) differ only in the body between and the decision form below.
 */
import Link from 'next/link';
import { useId, type ReactNode } from 'react';
import type { WaitingRun } from '@/server/runtime';
import { formatTimestamp } from '@/components/traces/trace-format';
import { GatePlan } from './gate-plan';
import { runAnchor } from './run-anchor';
import styles from './approvals.module.css';

interface GateCardProps {
  readonly item: Pick<WaitingRun, 'run' | 'gate' | 'after' | 'waitingSince' | 'user'>;
  readonly linked: boolean;
  /** The approver needs to know who asked and which role decides; the asker knows both. */
  readonly forApprover: boolean;
  readonly testId?: string;
  readonly children: ReactNode;
  readonly footer?: ReactNode;
}

export function GateCard({ item, linked, forApprover, testId, children, footer }: GateCardProps) {
  const id = useId();
  const { run, gate, after } = item;
  const explain = run.explain;
  return (
    <article
      id={runAnchor(run.runId)}
      className={`panel ${styles.card}${linked ? ` ${styles.linked}` : ''}`}
      data-testid={testId}
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
          <span id={`${id}-run`}>run {run.runId}</span>
          {forApprover ? (
            <>
              {' '}
              · asked by <strong>{item.user}</strong>
            </>
          ) : null}{' '}
          · waiting since {formatTimestamp(item.waitingSince)} ·{' '}
          {forApprover ? (
            <>
              gate <code>{gate.nodeId}</code> needs the <strong>{gate.approverRole}</strong> role ·{' '}
            </>
          ) : null}
          <Link href={`/traces/${encodeURIComponent(run.runId)}`}>trace</Link> · <Link href={`/plans/${encodeURIComponent(run.runId)}`}>plan</Link>
        </p>
      </header>
      {children}
      <section aria-label="Plan around the gate">
        <h3>Plan around the gate</h3>
        <GatePlan nodes={explain.graph.nodes} analyzed={explain.analyze?.nodes ?? []} gateId={gate.nodeId} after={after} />
      </section>
      {footer}
    </article>
  );
}
