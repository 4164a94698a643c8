import type { KnowledgeSourceSummary } from '@/server/runtime/contracts/knowledge-explorer';
import { TableScroll } from '@/components/layout/table-scroll';
import styles from './knowledge.module.css';
import { shortId } from './knowledge-format';
import { StatusBadge } from './status-badge';

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
    <TableScroll label="Sources">
      <table className="data-table" data-testid="knowledge-sources">
        <thead>
          <tr>
            <th scope="col">Source</th>
            <th scope="col">Kind</th>
            <th scope="col">Current version</th>
            <th scope="col" className="num">Versions</th>
            <th scope="col" className="num">Chunks</th>
            <th scope="col" className="num" title="facts valid now">Facts now</th>
            <th scope="col" className="num">Contradictions</th>
            <th scope="col">Status</th>
          </tr>
        </thead>
        <tbody>
          {sources.length === 0 ? (
            <tr>
              <td colSpan={8} className="muted">
                No sources yet. Upload files below, or ingest a folder with the CLI (context-runtime ingest PATH).
              </td>
            </tr>
          ) : (
            sources.map((source) => (
              <tr key={source.name} data-testid="knowledge-source-row" data-source={source.name} className={source.name === selected ? styles.selected : undefined}>
                <th scope="row">
                  <button type="button" className={styles.linkButton} onClick={() => onSelect(source.name)} aria-pressed={source.name === selected}>
                    {source.name}
                  </button>
                </th>
                <td>{source.kind}</td>
                <td>
                  {source.currentVersionNo === null ? '—' : `v${source.currentVersionNo}`}{' '}
                  {source.currentVersionId ? <code className="muted">{shortId(source.currentVersionId)}</code> : null}
                </td>
                <td className="num">{source.versions}</td>
                <td className="num">{source.chunks}</td>
                <td className="num">{source.facts}</td>
                <td className="num">{source.contradictions}</td>
                <td data-testid="knowledge-source-status">
                  <StatusBadge status={source.stale ? 'stale' : 'current'} reason={source.staleReason} />
                </td>
              </tr>
            ))
          )}
        </tbody>
      </table>
    </TableScroll>
  );
}
