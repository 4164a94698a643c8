import type { ExplainedCandidate } from '@/server/runtime/explain/explain-types';
import type { PlanScoreWeights } from '@/server/runtime/types';
import { ExplainSection } from './explain-section';
import { formatRatio, formatScore, formatSeconds, formatUsd } from './format';
import { TableScroll } from '@/components/layout/table-scroll';

const SHOWN = 15;
const COMPONENTS = ['acc', 'cost', 'lat', 'risk', 'hall', 'loss', 'cache', 'vrf'] as const;

interface CandidateTableProps {
  readonly candidates: readonly ExplainedCandidate[];
  readonly enumerated: number;
  readonly weights: PlanScoreWeights;
}

export function CandidateTable({ candidates, enumerated, weights }: CandidateTableProps) {
  const shown = candidates.slice(0, SHOWN);
  // The chosen plan is normally first; keep it visible even if a later version reorders the list.
  const chosen = candidates.find((candidate) => candidate.chosen);
  if (chosen && !shown.includes(chosen)) shown.push(chosen);
  return (
    <ExplainSection title="Candidate plans" note={`(top ${shown.length} of ${candidates.length} scored, ${enumerated} enumerated)`}>
      <TableScroll label="Scored candidates">
        <table className="data-table candidates" aria-label="Candidate plans" data-testid="candidate-table">
          <thead>
            <tr>
              <th scope="col">#</th>
              <th scope="col">Plan</th>
              <th scope="col">Feasible</th>
              <th scope="col" className="num">Score</th>
              {COMPONENTS.map((name) => (
                <th key={name} scope="col" className="num" title={`weight ${weights[name]}`}>
                  {name}
                  <span className="weight">×{weights[name]}</span>
                </th>
              ))}
              <th scope="col" className="num">Accuracy</th>
              <th scope="col" className="num">Cost</th>
              <th scope="col" className="num">Latency</th>
            </tr>
          </thead>
          <tbody>
            {shown.map((candidate, index) => (
              <tr key={candidate.id} className={candidate.chosen ? 'chosen' : candidate.feasible ? undefined : 'infeasible'} data-chosen={candidate.chosen || undefined}>
                <td>{index + 1}</td>
                <td>
                  {candidate.chosen ? <span className="badge chosen-badge">chosen</span> : null} {candidate.description}
                </td>
                <td>
                  {candidate.feasible ? (
                    'yes'
                  ) : (
                    <span className="violation">{candidate.violations.map((violation) => violation.message).join('; ') || 'no'}</span>
                  )}
                </td>
                <td className="num strong">{formatScore(candidate.score.total)}</td>
                {COMPONENTS.map((name) => (
                  <td key={name} className="num">
                    {formatScore(candidate.score.components[name])}
                  </td>
                ))}
                <td className="num">{formatRatio(candidate.estimates.accuracy.value)}</td>
                <td className="num">{formatUsd(candidate.estimates.costUsd.value)}</td>
                <td className="num">{formatSeconds(candidate.estimates.latencySeconds.value)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
    </ExplainSection>
  );
}
