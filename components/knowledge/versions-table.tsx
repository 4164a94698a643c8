import type { SourceVersionView } from '@/server/runtime/contracts/knowledge-explorer';
import { DataTable, type ColumnList } from '@/components/ui/data-table';
import { formatInstant, shortId } from './knowledge-format';
import { StatusBadge } from './status-badge';

const COLUMNS: ColumnList<SourceVersionView> = [
  { key: 'version', header: 'Version', rowHeader: true, cell: (version) => `v${version.versionNo}` },
  { key: 'id', header: 'Id', cell: (version) => <code title={version.id}>{shortId(version.id)}</code> },
  { key: 'hash', header: 'Content hash', cell: (version) => <code title={version.contentHash}>{version.contentHash.slice(0, 12)}</code> },
  { key: 'recorded', header: 'Recorded', cell: (version) => formatInstant(version.recordedAt) },
  { key: 'superseded', header: 'Superseded', cell: (version) => formatInstant(version.supersededAt) },
  { key: 'chunks', header: 'Chunks', numeric: true, cell: (version) => version.chunkCount },
  { key: 'tokens', header: 'Tokens', numeric: true, cell: (version) => version.tokenCount.toLocaleString('en-US') },
  { key: 'facts', header: 'Facts', numeric: true, cell: (version) => version.facts },
  { key: 'status', header: 'Status', cell: (version) => <StatusBadge status={version.status} reason={version.statusReason} /> },
];

/** Every version of one source, newest first: old versions are kept, never deleted. */
export function VersionsTable({ versions }: { readonly versions: readonly SourceVersionView[] }) {
  return (
    <DataTable
      rows={versions}
      columns={COLUMNS}
      rowKey={(version) => version.id}
      rowAttributes={(version) => ({ 'data-testid': 'knowledge-version-row', 'data-version': version.versionNo })}
      testId="knowledge-versions"
      scrollLabel="Source versions"
    />
  );
}
