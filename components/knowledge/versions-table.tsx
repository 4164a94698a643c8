import type { SourceVersionView } from '@/server/runtime/contracts/knowledge-explorer';
import { TableScroll } from '@/components/layout/table-scroll';
import { formatInstant, shortId } from './knowledge-format';
import { StatusBadge } from './status-badge';

/** Every version of one source, newest first: old versions are kept, never deleted. */
export function VersionsTable({ versions }: { readonly versions: readonly SourceVersionView[] }) {
  return (
    <TableScroll label="Source versions">
      <table className="data-table" data-testid="knowledge-versions">
        <thead>
          <tr>
            <th scope="col">Version</th>
            <th scope="col">Id</th>
            <th scope="col">Content hash</th>
            <th scope="col">Recorded</th>
            <th scope="col">Superseded</th>
            <th scope="col" className="num">Chunks</th>
            <th scope="col" className="num">Tokens</th>
            <th scope="col" className="num">Facts</th>
            <th scope="col">Status</th>
          </tr>
        </thead>
        <tbody>
          {versions.map((version) => (
            <tr key={version.id} data-testid="knowledge-version-row" data-version={version.versionNo}>
              <th scope="row">v{version.versionNo}</th>
              <td>
                <code title={version.id}>{shortId(version.id)}</code>
              </td>
              <td>
                <code title={version.contentHash}>{version.contentHash.slice(0, 12)}</code>
              </td>
              <td>{formatInstant(version.recordedAt)}</td>
              <td>{formatInstant(version.supersededAt)}</td>
              <td className="num">{version.chunkCount}</td>
              <td className="num">{version.tokenCount.toLocaleString('en-US')}</td>
              <td className="num">{version.facts}</td>
              <td>
                <StatusBadge status={version.status} reason={version.statusReason} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}
