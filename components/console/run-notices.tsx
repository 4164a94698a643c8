import Link from 'next/link';
import type { RunResult } from '@/server/runtime/explain/explain-types';

/** What a reader must know before trusting the answer: approval gate, run failure, verification, caveats. */
export function RunNotices({ result }: { readonly result: RunResult }) {
  const { pendingApproval, verification, caveats } = result;
  return (
    <div className="run-notices">
      {result.status === 'awaiting_approval' && pendingApproval ? (
        <div className="notice warning" role="status" data-testid="pending-approval">
          <strong>Awaiting approval</strong> at node <code>{pendingApproval.nodeId}</code>: {pendingApproval.reason}. Run{' '}
          <code>{result.runId}</code> resumes once an approver decides.{' '}
          {/* The approvals page picks the run out of `?run=` (agreed with its owner). */}
          <Link href={`/approvals?run=${encodeURIComponent(result.runId)}`}>Open this run in Approvals</Link>
        </div>
      ) : null}
      {result.status === 'unverified' ? (
        <div className="notice danger" role="status" aria-label="Not a verified answer">
          <span className="status status-unverified">Not a verified answer</span> Verification was required and failed on every attempt:
          <ul>
            {(verification?.checks ?? []).filter((check) => !check.passed).map((check) => (
              <li key={check.name}>
                {check.name}: {check.detail}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {result.error ? (
        <div className="notice danger" role="status" data-testid="run-error">
          <strong>Run {result.status}</strong>: {result.error}
        </div>
      ) : null}
      {verification ? (
        <div className={`notice ${verification.passed ? 'success' : 'danger'}`} data-testid="verification">
          <strong>Verification {verification.passed ? 'passed' : 'failed'}</strong> ({verification.method}, confidence{' '}
          {(verification.confidence * 100).toFixed(0)}%)
          {verification.checks.length > 0 ? (
            <ul className="checks">
              {verification.checks.map((check) => (
                <li key={check.name} className={check.passed ? 'passed' : 'failed'}>
                  {check.passed ? '✓' : '✗'} {check.name} ({(check.score * 100).toFixed(0)}%): {check.detail}
                </li>
              ))}
            </ul>
          ) : null}
        </div>
      ) : null}
      {caveats.length > 0 ? (
        <div className="notice" data-testid="caveats">
          <strong>Caveats</strong>
          <ul>
            {caveats.map((caveat) => (
              <li key={caveat}>{caveat}</li>
            ))}
          </ul>
        </div>
      ) : null}
    </div>
  );
}
