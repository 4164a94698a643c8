'use client';

/** The approval audit log: append-only in the database (a trigger refuses UPDATE and DELETE), newest first. */
import Link from 'next/link';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTRPC } from '@/components/providers/trpc-provider';
import { ErrorMessage } from '@/components/console/error-message';
import { formatTimestamp } from '@/components/traces/trace-format';
import styles from './approvals.module.css';
import { TableScroll } from '@/components/layout/table-scroll';

const PAGE_SIZE = 20;

export function AuditLog() {
  const trpc = useTRPC();
  const [page, setPage] = useState(0);
  const log = useQuery({ ...trpc.approvals.log.queryOptions({ limit: PAGE_SIZE, offset: page * PAGE_SIZE }), placeholderData: keepPreviousData });
  return (
    <section className="panel" aria-labelledby="audit-heading">
      <h2 id="audit-heading">
        Audit log <span className="section-note">— every decision, kept append-only by the database</span>
      </h2>
      {log.error ? <ErrorMessage error={log.error} /> : null}
      {log.isPending ? <p className="muted">Loading the audit log…</p> : null}
      {log.data ? (
        <>
          <TableScroll label="Audit log entries">
            <table className="data-table" data-testid="audit-log">
              <thead>
                <tr>
                  <th scope="col">When</th>
                  <th scope="col">Decision</th>
                  <th scope="col">By</th>
                  <th scope="col">Run</th>
                  <th scope="col">Gate</th>
                  <th scope="col">Comment</th>
                </tr>
              </thead>
              <tbody>
                {log.data.entries.length === 0 ? (
                  <tr>
                    <td colSpan={6} className="muted">
                      No decisions yet.
                    </td>
                  </tr>
                ) : (
                  log.data.entries.map((entry) => (
                    <tr key={entry.id} data-testid="audit-row" data-run-id={entry.runId}>
                      <td className={styles.nowrap}>{formatTimestamp(entry.at)}</td>
                      <td>
                        <span className={`status status-${entry.decision === 'approved' ? 'completed' : 'rejected'}`}>{entry.decision}</span>
                      </td>
                      <td>{entry.by}</td>
                      <td className={styles.goalCell}>
                        <Link href={`/traces/${encodeURIComponent(entry.runId)}`}>{entry.goal}</Link>
                      </td>
                      <td>
                        <code>{entry.nodeId}</code>
                      </td>
                      <td>{entry.comment || <span className="muted">—</span>}</td>
                    </tr>
                  ))
                )}
              </tbody>
            </table>
          </TableScroll>
          <nav className={styles.pager} aria-label="Audit log pages">
            <button type="button" disabled={page === 0} onClick={() => setPage((current) => Math.max(0, current - 1))}>
              ← Newer
            </button>
            <button type="button" disabled={!log.data.hasMore} onClick={() => setPage((current) => current + 1)}>
              Older →
            </button>
          </nav>
        </>
      ) : null}
    </section>
  );
}
