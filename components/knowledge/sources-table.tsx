import type { KnowledgeSourceSummary } from '@/server/runtime/contracts/knowledge-explorer';
import { DataTable, type ColumnList } from '@/components/ui/data-table';
import styles from './knowledge.module.css';
import { shortId } from './knowledge-format';
import { StatusBadge } from './status-badge';

function sourceColumns(selected: string | null, onSelect: (name: string) => void): ColumnList<KnowledgeSourceSummary> {
  return [
    {
      key: 'source',
      header: 'Source',
      rowHeader: true,
      cell: (source) => (
        <button type="button" className={styles.linkButton} onClick={() => onSelect(source.name)} aria-pressed={source.name === selected}>
          {source.name}
        </button>
      ),
    },
    { key: 'kind', header: 'Kind', cell: (source) => source.kind },
    {
      key: 'current',
      header: 'Current version',
      cell: (source) => (
        <>
          {source.currentVersionNo === null ? '—' : `v${source.currentVersionNo}`} {source.currentVersionId ? <code className="muted">{shortId(source.currentVersionId)}</code> : null}
        </>
      ),
    },
    { key: 'versions', header: 'Versions', numeric: true, cell: (source) => source.versions },
    { key: 'chunks', header: 'Chunks', numeric: true, cell: (source) => source.chunks },
    { key: 'facts', header: 'Facts now', headerTitle: 'facts valid now', numeric: true, cell: (source) => source.facts },
    { key: 'contradictions', header: 'Contradictions', numeric: true, cell: (source) => source.contradictions },
    // Marked at ingest (issue 12, finding 5): what policy.sensitive_content keeps off non-local models.
    { key: 'sensitive', header: 'Sensitive', headerTitle: 'chunks holding personal data or secrets, kept off non-local models', numeric: true, cell: (source) => source.sensitiveChunks },
    {
      key: 'status',
      header: 'Status',
      cellAttributes: () => ({ 'data-testid': 'knowledge-source-status' }),
      cell: (source) => <StatusBadge status={source.stale ? 'stale' : 'current'} reason={source.staleReason} />,
    },
  ];
}

export function SourcesTable({
  sources,
  selected,
  onSelect,
}: {
  readonly sources: readonly KnowledgeSourceSummary[];
  readonly selected: string | null;
  readonly onSelect: (name: string) => void;
}) {
  return (
    <DataTable
      rows={sources}
      columns={sourceColumns(selected, onSelect)}
      rowKey={(source) => source.name}
      rowAttributes={(source) => ({ 'data-testid': 'knowledge-source-row', 'data-source': source.name, className: source.name === selected ? 'selected' : undefined })}
      testId="knowledge-sources"
      scrollLabel="Sources"
      empty="No sources yet. Upload files below, or ingest a folder with the CLI (context-runtime ingest PATH)."
    />
  );
}
