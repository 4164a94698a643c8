'use client';

/**
 * The approvals inbox: runs paused at an approve node, decided here with a comment; the run
 * resumes on the server and its outcome shows at the top. Below, the audit log of every decision.
 */
import Link from 'next/link';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTRPC } from '@/components/providers/trpc-provider';
import { ErrorMessage } from '@/components/console/error-message';
import { STATUS_LABEL } from '@/components/traces/trace-format';
import { AuditLog } from './audit-log';
import { PendingCard, type Verdict } from './pending-card';
import styles from './approvals.module.css';

interface Outcome {
  readonly runId: string;
  readonly goal: string;
  readonly verdict: Verdict;
  readonly status: string;
  readonly answer?: string;
  readonly error?: string;
}

export function ApprovalsPage() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  // A refusal (FORBIDDEN) will not change on retry; a new gated run shows up within 15 s without a reload.
  const inbox = useQuery({ ...trpc.approvals.inbox.queryOptions({ limit: 50 }), retry: false, refetchInterval: (query) => (query.state.error ? false : 15_000) });
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
  const forbidden = inbox.error?.data?.code === 'FORBIDDEN';

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
        ) : inbox.error ? (
          <ErrorMessage error={inbox.error} />
        ) : null}
        {inbox.isPending ? <p className="muted">Loading the inbox…</p> : null}
        {inbox.data && inbox.data.length === 0 ? (
          <p className="muted" data-testid="inbox-empty">
            Nothing is waiting for approval.
          </p>
        ) : null}
        {inbox.data && inbox.data.length > 0 ? (
          <p data-testid="inbox-count">
            <strong>{inbox.data.length}</strong> run{inbox.data.length === 1 ? '' : 's'} waiting.
          </p>
        ) : null}
      </section>
      {inbox.data?.map((item) => (
        <PendingCard
          key={item.run.runId}
          item={item}
          deciding={decidingRunId === item.run.runId}
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
      <AuditLog />
    </div>
  );
}
