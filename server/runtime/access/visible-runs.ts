/**
 * Lists of runs and approval decisions with the access check applied (principal-access.ts). The
 * stores page by row; what a principal may read is decided per run, so a page of visible rows is
 * gathered by reading store pages in order, skipping `offset` visible rows first. The scan is
 * bounded: a caller who may read few of very many runs gets what the first RUN_SCAN_LIMIT rows held.
 */
import type { ApprovalAuditEntry, RunListOptions, RunRecord, RunStorePlugin, RunSummary } from '../contracts/run-store';
import type { PrincipalAccess } from './principal-access';

/** Rows read, at most, to answer one request (the traces page asks for ≤ 201 at a time). */
export const RUN_SCAN_LIMIT = 5000;

/** A run id → may-read memo for one request: the audit log names one run many times. */
function runVerdicts(runStore: RunStorePlugin, access: PrincipalAccess) {
  const verdicts = new Map<string, Promise<boolean>>();
  return (runId: string): Promise<boolean> => {
    let verdict = verdicts.get(runId);
    if (!verdict) {
      verdict = runStore.loadRun(runId).then((record: RunRecord | undefined) => record !== undefined && access.mayReadRun(record));
      verdicts.set(runId, verdict);
    }
    return verdict;
  };
}

async function visiblePage<Row>(read: (limit: number, offset: number) => Promise<readonly Row[]>, visible: (row: Row) => Promise<boolean>, limit: number, offset: number): Promise<readonly Row[]> {
  const pageSize = Math.min(200, Math.max(25, limit));
  const rows: Row[] = [];
  let skipped = 0;
  for (let scanned = 0; rows.length < limit && scanned < RUN_SCAN_LIMIT; scanned += pageSize) {
    const page = await read(pageSize, scanned);
    const verdicts = await Promise.all(page.map(visible));
    for (const [index, row] of page.entries()) {
      if (!verdicts[index]) continue;
      if (skipped < offset) skipped++;
      else if (rows.length < limit) rows.push(row);
    }
    if (page.length < pageSize) break;
  }
  return Object.freeze(rows);
}

export function visibleRuns(runStore: RunStorePlugin, access: PrincipalAccess, options: RunListOptions): Promise<readonly RunSummary[]> {
  const mayRead = runVerdicts(runStore, access);
  return visiblePage((limit, offset) => runStore.listRuns({ ...options, limit, offset }), (summary) => mayRead(summary.id), options.limit, options.offset ?? 0);
}

/** An audit row carries its run's goal: it is readable exactly when the run is. */
export function visibleDecisions(
  runStore: RunStorePlugin & Required<Pick<RunStorePlugin, 'listDecisions'>>,
  access: PrincipalAccess,
  options: { readonly limit: number; readonly offset?: number; readonly runId?: string },
): Promise<readonly ApprovalAuditEntry[]> {
  const mayRead = runVerdicts(runStore, access);
  return visiblePage((limit, offset) => runStore.listDecisions({ limit, offset, runId: options.runId }), (entry) => mayRead(entry.runId), options.limit, options.offset ?? 0);
}
