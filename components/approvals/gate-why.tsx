/**
 * Why a run stopped at its gate: the gate's reason, the planner rules and policy reasons behind it,
 * and the intent signals that set them. Shared by the approver's card and the asker's read-only one.
 */
import type { PendingApproval } from '@/server/runtime';
import styles from './approvals.module.css';

export function GateWhy({ gate, why }: Pick<PendingApproval, 'gate' | 'why'>) {
  return (
    <section aria-label="Why approval is required">
      <h3>Why it was gated</h3>
      <p className={styles.reason} data-testid="gate-reason">
        {gate.reason}
      </p>
      <ul className={styles.reasons}>
        {why.rules.map((rule) => (
          <li key={rule.rule}>
            Planner rule <code>{rule.rule}</code>: {rule.why}
          </li>
        ))}
        {why.policyReasons.filter((reason) => reason !== gate.reason).map((reason) => (
          <li key={reason}>Policy: {reason}</li>
        ))}
        <li>
          Intent: {why.intentClasses.map((intentClass) => <span key={intentClass} className="badge">{intentClass.replace('_', '-')}</span>)}
          {why.signals.length > 0 ? (
            <>
              {' '}
              matched {why.signals.map((signal) => <code key={signal} className={styles.signal}>{signal}</code>)}
            </>
          ) : null}
        </li>
      </ul>
    </section>
  );
}
