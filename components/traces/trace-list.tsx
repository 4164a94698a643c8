'use client';

/**
 * Every run, newest first, searchable by goal text, status, user and time range, paged. Filters
 * apply on submit (Enter in any box), so typing does not fire a query per keystroke.
 */
import Link from 'next/link';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTRPC } from '@/components/providers/trpc-provider';
import { ErrorMessage } from '@/components/console/error-message';
import type { RunStatus } from '@/server/runtime/contracts/run-store';
import { DataTable, type ColumnList } from '@/components/ui/data-table';
import type { RunSummary } from '@/server/runtime/contracts/run-store';
import { formatSeconds, formatTimestamp, formatUsd, STATUS_LABEL } from './trace-format';
import styles from './traces.module.css';

const PAGE_SIZE = 25;
const STATUSES = Object.keys(STATUS_LABEL) as RunStatus[];

interface Filters {
  readonly search?: string;
  readonly status?: RunStatus;
  readonly user?: string;
  readonly from?: string;
  readonly to?: string;
}

/** A datetime-local value is the browser's local time; the server wants an absolute instant. */
const RUN_COLUMNS: ColumnList<RunSummary> = [
  {
    key: 'goal',
    header: 'Goal',
    className: 'long-text',
    cell: (run) => (
      <>
        <Link href={`/traces/${encodeURIComponent(run.id)}`}>{run.goal}</Link>
        <span className={styles.runId}>{run.id.slice(0, 8)}</span>
      </>
    ),
  },
  { key: 'status', header: 'Status', nowrap: true, cell: (run) => <span className={`status status-${run.status}`}>{STATUS_LABEL[run.status] ?? run.status}</span> },
  { key: 'cost', header: 'Cost', numeric: true, cell: (run) => formatUsd(run.costUsd) },
  { key: 'latency', header: 'Latency', numeric: true, cell: (run) => formatSeconds(run.latencySeconds) },
  { key: 'user', header: 'User', cell: (run) => run.user },
  { key: 'started', header: 'Started', nowrap: true, cell: (run) => formatTimestamp(run.createdAt) },
];

const toInstant = (local: FormDataEntryValue | null): string | undefined => {
  if (typeof local !== 'string' || local === '') return undefined;
  const date = new Date(local);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
};

const text = (value: FormDataEntryValue | null) => (typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined);

export function TraceList() {
  const trpc = useTRPC();
  const [filters, setFilters] = useState<Filters>({});
  const [page, setPage] = useState(0);
  const runs = useQuery({ ...trpc.traces.list.queryOptions({ ...filters, limit: PAGE_SIZE, offset: page * PAGE_SIZE }), placeholderData: keepPreviousData });

  const apply = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setFilters({ search: text(form.get('search')), status: (text(form.get('status')) as RunStatus | undefined) ?? undefined, user: text(form.get('user')), from: toInstant(form.get('from')), to: toInstant(form.get('to')) });
    setPage(0);
  };

  const first = page * PAGE_SIZE + 1;
  const shown = runs.data?.runs.length ?? 0;

  return (
    <section className="panel" aria-labelledby="traces-heading">
      <h1 id="traces-heading">Traces</h1>
      <form className={styles.filters} onSubmit={apply} role="search" aria-label="Filter runs">
        <label>
          Goal or run id
          <input name="search" type="search" placeholder="e.g. checkout-api" data-testid="trace-search" />
        </label>
        <label>
          Status
          <select name="status" defaultValue="" data-testid="trace-status-filter">
            <option value="">Any</option>
            {STATUSES.map((status) => (
              <option key={status} value={status}>
                {STATUS_LABEL[status]}
              </option>
            ))}
          </select>
        </label>
        <label>
          User
          <input name="user" type="text" placeholder="any" autoComplete="off" />
        </label>
        <label>
          From
          <input name="from" type="datetime-local" />
        </label>
        <label>
          Until
          <input name="to" type="datetime-local" />
        </label>
        <div className={styles.filterActions}>
          <button type="submit" className="primary" data-testid="trace-search-submit">
            Search
          </button>
          <button
            type="reset"
            onClick={() => {
              setFilters({});
              setPage(0);
            }}
          >
            Clear
          </button>
        </div>
      </form>
      {runs.error ? <ErrorMessage error={runs.error} /> : null}
      {runs.isPending ? <p className="muted">Loading runs…</p> : null}
      {runs.data ? (
        <>
          <DataTable
            rows={runs.data.runs}
            columns={RUN_COLUMNS}
            rowKey={(run) => run.id}
            rowAttributes={(run) => ({ 'data-testid': 'trace-row', 'data-run-id': run.id })}
            testId="trace-list"
            busy={runs.isFetching}
            scrollLabel="Runs"
            empty={Object.values(filters).some(Boolean) ? 'No run matches these filters.' : 'No runs yet. Ask something in the Console.'}
          />
          <nav className={styles.pager} aria-label="Pages">
            <span className="muted">{shown === 0 ? 'No rows' : `Rows ${first}–${first + shown - 1}`}</span>
            <div>
              <button type="button" disabled={page === 0} onClick={() => setPage((current) => Math.max(0, current - 1))}>
                ← Newer
              </button>
              <button type="button" disabled={!runs.data.hasMore} onClick={() => setPage((current) => current + 1)} data-testid="trace-next-page">
                Older →
              </button>
            </div>
          </nav>
        </>
      ) : null}
    </section>
  );
}
