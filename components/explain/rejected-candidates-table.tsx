import type { RejectedCandidate } from '@/server/runtime/types';
import { ExplainSection } from './explain-section';
import { describeCandidate } from './format';

export function RejectedCandidatesTable({ rejected }: { readonly rejected: readonly RejectedCandidate[] }) {
  return (
    <ExplainSection title="Rejected candidates" note={`(${rejected.length})`}>
      <table className="data-table" aria-label="Rejected candidates" data-testid="rejected-candidates">
        <thead>
          <tr>
            <th scope="col">Stage</th>
            <th scope="col">Rule</th>
            <th scope="col">Candidate</th>
            <th scope="col">Reason</th>
          </tr>
        </thead>
        <tbody>
          {rejected.length === 0 ? (
            <tr>
              <td colSpan={4} className="muted">
                None: every enumerated candidate was scored.
              </td>
            </tr>
          ) : (
            rejected.map((entry, index) => (
              <tr key={`${entry.rule}-${index}`}>
                <td>
                  <span className={`badge stage-${entry.stage}`}>{entry.stage}</span>
                </td>
                <td>
                  <code>{entry.rule}</code>
                </td>
                <td>{describeCandidate(entry.candidate)}</td>
                <td>{entry.reason}</td>
              </tr>
            ))
          )}
        </tbody>
      </table>
    </ExplainSection>
  );
}
