'use client';

/**
 * The decision at the foot of a pending card. It offers only what the runtime will accept from the
 * signed-in user (PendingApproval.rights, the rule approvals.decide enforces): an approver's own run
 * shows no Approve button that would answer FORBIDDEN, but says another approver must decide, and
 * keeps Reject, with which the asker withdraws the request.
 */
import { useId, type FormEvent } from 'react';
import type { PendingApproval } from '@/server/runtime';
import styles from './approvals.module.css';

export type Verdict = 'approved' | 'rejected';

interface DecisionFormProps {
  readonly goal: string;
  readonly gate: PendingApproval['gate'];
  readonly rights: PendingApproval['rights'];
  /** The verdict being sent, while a decision is in flight. */
  readonly deciding?: Verdict;
  readonly onDecide: (verdict: Verdict, comment: string) => void;
}

export function DecisionForm({ goal, gate, rights, deciding, onDecide }: DecisionFormProps) {
  const commentId = useId();
  // Without rights (an older server), offer both and let the server decide, as before.
  const mayApprove = rights?.approve ?? true;
  const mayReject = rights?.reject ?? true;
  if (!mayApprove && !mayReject) {
    return (
      <p className="notice" role="note">
        This gate must be decided by someone with the <strong>{gate.approverRole}</strong> role.
      </p>
    );
  }

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    // The button that submitted decides.
    const submitter = (event.nativeEvent as SubmitEvent).submitter;
    const chosen: Verdict = submitter?.getAttribute('value') === 'rejected' || !mayApprove ? 'rejected' : 'approved';
    onDecide(chosen, String(new FormData(event.currentTarget).get('comment') ?? ''));
  };

  return (
    <form className={styles.decision} onSubmit={submit} aria-label={`Decide on: ${goal}`}>
      {rights?.startedByYou && !mayApprove ? (
        <p className="notice warning" role="note">
          You started this run — another {gate.approverRole} must decide. You can still reject it to withdraw the request.
        </p>
      ) : null}
      <label htmlFor={commentId}>Comment for the audit log</label>
      <textarea id={commentId} name="comment" rows={2} maxLength={2000} placeholder="What you checked, or why not" data-testid="decision-comment" />
      <div className="actions">
        {mayApprove ? (
          <button type="submit" value="approved" className="primary" disabled={deciding !== undefined} data-testid="approve-button">
            {deciding === 'approved' ? 'Approving…' : 'Approve'}
          </button>
        ) : null}
        <button type="submit" value="rejected" className={styles.reject} disabled={deciding !== undefined} data-testid="reject-button">
          {deciding === 'rejected' ? 'Rejecting…' : 'Reject'}
        </button>
      </div>
    </form>
  );
}
