/**
 * Every scored candidate with its PlanScore components, as a table and as a chart of signed
 * weighted contributions (benefits right of zero, penalties left), so "why this plan?" reads at a
 * glance. Infeasible candidates carry the constraint that cut them.
 */
import type { ExplainedCandidate } from '@/server/runtime/explain/explain-types';
import type { PlanScoreWeights } from '@/server/runtime/types';
import { formatRatio, formatScore, formatSeconds, formatTokens, formatUsd } from '@/components/explain/format';
import { contributions, SCORE_TERMS } from './score-contributions';
import { TableScroll } from '@/components/layout/table-scroll';

interface CandidateScoresProps {
  readonly candidates: readonly ExplainedCandidate[];
  readonly enumerated: number;
  readonly weights: PlanScoreWeights;
}

function ScoreBar({ candidate, scale }: { readonly candidate: ExplainedCandidate; readonly scale: number }) {
  const parts = contributions(candidate.score);
  const width = (value: number) => `${((Math.abs(value) / scale) * 50).toFixed(2)}%`;
  const describe = parts.map((part) => `${part.label} ${part.value >= 0 ? '+' : ''}${part.value.toFixed(3)}`).join(', ');
  return (
    <div className="score-bar" role="img" aria-label={`score ${formatScore(candidate.score.total)}: ${describe}`}>
      <div className="score-bar-half negative">
        {parts.filter((part) => part.value < 0).map((part) => (
          <span key={part.key} className={`score-seg term-${part.key}`} style={{ width: width(part.value) }} title={`${part.label} ${part.value.toFixed(3)}`} />
        ))}
      </div>
      <div className="score-bar-half positive">
        {parts.filter((part) => part.value > 0).map((part) => (
          <span key={part.key} className={`score-seg term-${part.key}`} style={{ width: width(part.value) }} title={`${part.label} +${part.value.toFixed(3)}`} />
        ))}
      </div>
    </div>
  );
}

/**
 * The eight components (0–1) under the bar, four to a line: as eight columns of their own they
 * pushed the table past its card at 1,280 px and cut the Accuracy column to "Ac…" (issue 10).
 */
function ScoreTerms({ candidate, weights }: { readonly candidate: ExplainedCandidate; readonly weights: PlanScoreWeights }) {
  return (
    <dl className="score-terms" aria-label="Score components">
      {SCORE_TERMS.map((term) => (
        <div key={term.key} title={`${term.label}: component 0–1, weight ${weights[term.key]}`}>
          <dt>{term.key}</dt>
          <dd>{formatScore(candidate.score.components[term.key])}</dd>
        </div>
      ))}
    </dl>
  );
}

export function CandidateScores({ candidates, enumerated, weights }: CandidateScoresProps) {
  // One scale for every row so bars compare across candidates.
  const scale = Math.max(1e-9, ...candidates.flatMap((candidate) => {
    const parts = contributions(candidate.score);
    return [parts.filter((part) => part.value > 0).reduce((sum, part) => sum + part.value, 0), -parts.filter((part) => part.value < 0).reduce((sum, part) => sum + part.value, 0)];
  }));
  return (
    <section className="panel plan-section" aria-labelledby="candidates-title">
      <h2 id="candidates-title">
        Candidate plans <span className="section-note">({candidates.length} scored of {enumerated} enumerated; best first)</span>
      </h2>
      <div className="score-legend" aria-hidden="true">
        {SCORE_TERMS.map((term) => (
          <span key={term.key}>
            <span className={`score-swatch term-${term.key}`} /> {term.label} ×{weights[term.key]}
          </span>
        ))}
        <span className="muted">penalties ← 0 → benefits</span>
      </div>
      <TableScroll label="Candidate scores">
        <table className="data-table candidates plan-candidates" data-testid="plan-candidates" aria-labelledby="candidates-title">
          <thead>
            <tr>
              <th scope="col">#</th>
              <th scope="col">Plan</th>
              <th scope="col" className="num">Score</th>
              <th scope="col" className="score-chart-col">
                Components
              </th>
              <th scope="col" className="num">Accuracy</th>
              <th scope="col" className="num">Cost</th>
              <th scope="col" className="num">Latency</th>
              <th scope="col" className="num">Tokens</th>
            </tr>
          </thead>
          <tbody>
            {candidates.map((candidate, index) => (
              <tr key={candidate.id} className={candidate.chosen ? 'chosen' : candidate.feasible ? undefined : 'infeasible'} data-chosen={candidate.chosen || undefined} data-feasible={candidate.feasible}>
                <td>{index + 1}</td>
                <td className="plan-candidate-description">
                  {candidate.chosen ? <span className="badge chosen-badge">chosen</span> : null}
                  {!candidate.feasible ? <span className="badge status-rejected">infeasible</span> : null} {candidate.description}
                  {!candidate.feasible && candidate.violations.length > 0 ? (
                    <ul className="violation plan-violations" data-testid="candidate-violations">
                      {candidate.violations.map((violation) => (
                        <li key={violation.constraint}>
                          <code>{violation.constraint}</code>: {violation.message}
                        </li>
                      ))}
                    </ul>
                  ) : null}
                </td>
                <td className="num strong">{formatScore(candidate.score.total)}</td>
                <td>
                  <ScoreBar candidate={candidate} scale={scale} />
                  <ScoreTerms candidate={candidate} weights={weights} />
                </td>
                <td className="num">{formatRatio(candidate.estimates.accuracy.value)}</td>
                <td className="num">{formatUsd(candidate.estimates.costUsd.value)}</td>
                <td className="num">{formatSeconds(candidate.estimates.latencySeconds.value)}</td>
                <td className="num">{formatTokens(candidate.estimates.tokens.value)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
    </section>
  );
}
