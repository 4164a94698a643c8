import type { Contradiction } from '@/server/runtime/contracts/knowledge';
import { valuesWithSources } from '@/server/runtime/explain/contradiction-text';
import { ExplainSection } from './explain-section';

/**
 * Facts the planned sources disagree on (same subject and attribute, different values), found
 * before anything is retrieved; the answer repeats the ones its context draws on as caveats.
 */
export function ContradictionsTable({ contradictions }: { readonly contradictions: readonly Contradiction[] }) {
  return (
    <ExplainSection title="Contradictions" note={`(${contradictions.length})`}>
      <table className="data-table" aria-label="Contradictions" data-testid="explain-contradictions">
        <thead>
          <tr>
            <th scope="col">Subject</th>
            <th scope="col">Attribute</th>
            <th scope="col">Values (sources)</th>
          </tr>
        </thead>
        <tbody>
          {contradictions.length === 0 ? (
            <tr>
              <td colSpan={3} className="muted">
                None among the planned sources.
              </td>
            </tr>
          ) : (
            contradictions.map((contradiction) => (
              <tr key={`${contradiction.subject}\u0000${contradiction.attribute}`}>
                <td>{contradiction.subject}</td>
                <td>{contradiction.attribute}</td>
                <td>{valuesWithSources(contradiction)}</td>
              </tr>
            ))
          )}
        </tbody>
      </table>
    </ExplainSection>
  );
}
