'use client';

/**
 * The asker's view of their own run paused at a gate: read-only. Why it waits, who may decide, the
 * plan around the gate and what it has cost so far — but not the drafted answer, which an approver
 * releases (or not). Deciding stays the approver's; this card has no buttons.
 */
import type { WaitingRun } from '@/server/runtime';
import { formatSeconds, formatUsd } from '@/components/explain/format';
import { GateCard } from './gate-card';
import { GateWhy } from './gate-why';
import styles from './approvals.module.css';

export function WaitingCard({ item, linked = false }: { readonly item: WaitingRun; readonly linked?: boolean }) {
  const { gate, why, after, spent } = item;
  return (
    <GateCard item={item} linked={linked} forApprover={false}>
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
    </GateCard>
  );
}
