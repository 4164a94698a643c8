import type { RejectedSource } from '@/server/runtime/types';
import { ExplainSection } from './explain-section';

export function RejectedSourcesTable({ rejected }: { readonly rejected: readonly RejectedSource[] }) {
  return (
    <ExplainSection title="Rejected sources" note={`(${rejected.length})`}>
      <table className="data-table" aria-label="Rejected sources" data-testid="rejected-sources">
        <thead>
          <tr>
            <th scope="col">Source</th>
            <th scope="col">Reason</th>
            <th scope="col">Detail</th>
          </tr>
        </thead>
        <tbody>
          {rejected.length === 0 ? (
            <tr>
              <td colSpan={3} className="muted">
                None.
              </td>
            </tr>
          ) : (
            rejected.map((entry) => (
              <tr key={`${entry.source}-${entry.reason}`}>
                <td>{entry.source}</td>
                <td>
                  <span className={`badge reason-${entry.reason}`}>{entry.reason.replace(/_/g, ' ')}</span>
                </td>
                <td>{entry.detail}</td>
              </tr>
            ))
          )}
        </tbody>
      </table>
    </ExplainSection>
  );
}
