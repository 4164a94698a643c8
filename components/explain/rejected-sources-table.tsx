import type { RejectedSource } from '@/server/runtime/types';
import { DataTable, type ColumnList } from '@/components/ui/data-table';
import { ExplainSection } from './explain-section';

const COLUMNS: ColumnList<RejectedSource> = [
  { key: 'source', header: 'Source', cell: (entry) => entry.source },
  { key: 'reason', header: 'Reason', cell: (entry) => <span className={`badge reason-${entry.reason}`}>{entry.reason.replace(/_/g, ' ')}</span> },
  { key: 'detail', header: 'Detail', cell: (entry) => entry.detail },
];

export function RejectedSourcesTable({ rejected }: { readonly rejected: readonly RejectedSource[] }) {
  return (
    <ExplainSection title="Rejected sources" note={`(${rejected.length})`}>
      <DataTable rows={rejected} columns={COLUMNS} rowKey={(entry) => `${entry.source}-${entry.reason}`} label="Rejected sources" testId="rejected-sources" empty="None." />
    </ExplainSection>
  );
}
