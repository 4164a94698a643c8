'use client';

/** The approval audit log: append-only in the database (a trigger refuses UPDATE and DELETE), newest first. */
import Link from 'next/link';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTRPC } from '@/components/providers/trpc-provider';
import { ErrorMessage } from '@/components/console/error-message';
import { formatTimestamp } from '@/components/traces/trace-format';
import styles from './approvals.module.css';
import { DataTable, type ColumnList } from '@/components/ui/data-table';
import type { ApprovalAuditEntry } from '@/server/runtime/contracts/run-store';

const PAGE_SIZE = 20;

const COLUMNS: ColumnList<ApprovalAuditEntry> = [
  { key: 'when', header: 'When', nowrap: true, cell: (entry) => formatTimestamp(entry.at) },
  { key: 'decision', header: 'Decision', cell: (entry) => <span className={`status status-${entry.decision === 'approved' ? 'completed' : 'rejected'}`}>{entry.decision}</span> },
  { key: 'by', header: 'By', cell: (entry) => entry.by },
  { key: 'run', header: 'Run', className: 'long-text', cell: (entry) => <Link href={`/traces/${encodeURIComponent(entry.runId)}`}>{entry.goal}</Link> },
  { key: 'gate', header: 'Gate', cell: (entry) => <code>{entry.nodeId}</code> },
  { key: 'comment', header: 'Comment', cell: (entry) => entry.comment || <span className="muted">—</span> },
];

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
          <DataTable
            rows={log.data.entries}
            columns={COLUMNS}
            rowKey={(entry) => String(entry.id)}
            rowAttributes={(entry) => ({ 'data-testid': 'audit-row', 'data-run-id': entry.runId })}
            testId="audit-log"
            scrollLabel="Audit log entries"
            empty="No decisions yet."
          />
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
