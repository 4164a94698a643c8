'use client';

/**
 * The approvals inbox: runs paused at an approve node, decided here with a comment; the run
 * resumes on the server and its outcome shows at the top. An operator sees their own waiting runs,
 * read-only. `?run=<id>` marks and scrolls to that run. Below, the audit log of every decision.
 */
import Link from 'next/link';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTRPC } from '@/components/providers/trpc-provider';
import { ErrorMessage } from '@/components/console/error-message';
import { STATUS_LABEL } from '@/components/traces/trace-format';
import { AuditLog } from './audit-log';
import { PendingCard, type Verdict } from './pending-card';
import { useLinkedRunScroll } from './use-linked-run-scroll';
import { WaitingCard } from './waiting-card';
import styles from './approvals.module.css';

interface Outcome {
  readonly runId: string;
  readonly goal: string;
  readonly verdict: Verdict;
  readonly status: string;
  readonly answer?: string;
  readonly error?: string;
}

/** What the signed-in user may do here: decide (approver and up), follow their own waiting runs (operator), or read the log (viewer). */
export type ApprovalsAccess = 'approver' | 'operator' | 'viewer';

export function ApprovalsPage({ access, linkedRunId }: { readonly access: ApprovalsAccess; readonly linkedRunId?: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  // A refusal (FORBIDDEN) will not change on retry; a new gated run shows up within 15 s without a reload.
  const refetchInterval = (query: { state: { error: unknown } }) => (query.state.error ? false : 15_000);
  const inbox = useQuery({ ...trpc.approvals.inbox.queryOptions({ limit: 50 }), retry: false, refetchInterval, enabled: access === 'approver' });
  const mine = useQuery({ ...trpc.approvals.mine.queryOptions({ limit: 50 }), retry: false, refetchInterval, enabled: access === 'operator' });
  const [outcomes, setOutcomes] = useState<readonly Outcome[]>([]);
  const [decidingRunId, setDecidingRunId] = useState<string | undefined>();
  const decide = useMutation(
    trpc.approvals.decide.mutationOptions({
      onSettled: async () => {
        setDecidingRunId(undefined);
        await Promise.all([queryClient.invalidateQueries({ queryKey: trpc.approvals.inbox.queryKey() }), queryClient.invalidateQueries({ queryKey: trpc.approvals.log.queryKey() })]);
      },
    }),
  );
  const listed = access === 'approver' ? inbox : mine;
  const runIds = access === 'approver' ? inbox.data?.map((item) => item.run.runId) : mine.data?.map((item) => item.run.runId);
  const linkedFound = linkedRunId !== undefined && runIds?.includes(linkedRunId) === true;
  useLinkedRunScroll(linkedFound ? linkedRunId : undefined);
  const forbidden = access === 'viewer' || listed.error?.data?.code === 'FORBIDDEN';
  const count = runIds?.length;

  return (
    <div className={styles.stack}>
      <section className="panel" aria-labelledby="approvals-heading">
        <h1 id="approvals-heading">Approvals</h1>
        <p className="muted">Runs whose plan has an approval gate stop there until someone with the approver role decides. Approving resumes the run; rejecting ends it.</p>
        {outcomes.map((outcome) => (
          <div key={outcome.runId} className={`notice ${outcome.status === 'completed' ? 'success' : outcome.status === 'failed' ? 'danger' : 'warning'}`} role="status" data-testid="decision-outcome" data-run-id={outcome.runId}>
            <strong>{outcome.verdict === 'approved' ? 'Approved' : 'Rejected'}</strong> “{outcome.goal}” — the run is now <span data-testid="outcome-status">{STATUS_LABEL[outcome.status] ?? outcome.status}</span>.{' '}
            <Link href={`/traces/${encodeURIComponent(outcome.runId)}`}>Open its trace</Link>
            {outcome.answer ? <p className={styles.outcomeAnswer}>{outcome.answer}</p> : null}
            {outcome.error ? <p>{outcome.error}</p> : null}
          </div>
        ))}
        {decide.error ? <ErrorMessage error={decide.error} /> : null}
        {forbidden ? (
          <p className="notice warning" data-testid="approvals-forbidden">
            Deciding needs the approver role, and the drafts waiting behind gates are shown only to approvers. The audit log below is open to everyone signed in.
          </p>
        ) : listed.error ? (
          <ErrorMessage error={listed.error} />
        ) : null}
        {access === 'operator' ? (
          <p className="muted">You see the runs you started that wait for an approver. Deciding needs the approver role; once approved, the answer appears in your console history.</p>
        ) : null}
        {!forbidden && listed.isPending ? <p className="muted">Loading the inbox…</p> : null}
        {count === 0 ? (
          <p className="muted" data-testid="inbox-empty">
            {access === 'approver' ? 'Nothing is waiting for approval.' : 'None of your runs is waiting for approval.'}
          </p>
        ) : null}
        {count !== undefined && count > 0 ? (
          <p data-testid="inbox-count">
            <strong>{count}</strong> {access === 'approver' ? '' : 'of your '}run{count === 1 ? '' : 's'} waiting.
          </p>
        ) : null}
        {linkedRunId && runIds && !linkedFound ? (
          <p className="notice" role="status">
            Run <code>{linkedRunId}</code> is not waiting for approval here: it may have been decided already, or it is not yours to follow.{' '}
            <Link href={`/traces/${encodeURIComponent(linkedRunId)}`}>Open its trace</Link>
          </p>
        ) : null}
      </section>
      {inbox.data?.map((item) => (
        <PendingCard
          key={item.run.runId}
          item={item}
          deciding={decidingRunId === item.run.runId}
          linked={item.run.runId === linkedRunId}
          onDecide={(verdict, comment) => {
            setDecidingRunId(item.run.runId);
            decide.mutate(
              { runId: item.run.runId, nodeId: item.gate.nodeId, decision: verdict, comment },
              {
                onSuccess: (result) =>
                  setOutcomes((previous) => [{ runId: result.runId, goal: item.run.explain.goal, verdict, status: result.status, answer: result.answer, error: result.error }, ...previous.filter((entry) => entry.runId !== result.runId)]),
              },
            );
          }}
        />
      ))}
      {mine.data?.map((item) => <WaitingCard key={item.run.runId} item={item} linked={item.run.runId === linkedRunId} />)}
      <AuditLog />
    </div>
  );
}
