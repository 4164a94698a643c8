/**
 * The scored candidates, one view for the console's EXPLAIN and the plan explorer: each plan with
 * its PlanScore as a chart of weighted contributions, the constraint that cut an infeasible one,
 * and its estimates. The caller gives the section and heading; EXPLAIN passes a row limit.
 */
import type { ExplainedCandidate } from '@/server/runtime/explain/explain-types';
import type { PlanScoreWeights } from '@/server/runtime/types';
import { DataTable, type ColumnList } from '@/components/ui/data-table';
import { candidateRowClass, shownCandidates } from './candidate-rows';
import { formatRatio, formatScore, formatSeconds, formatTokens, formatUsd } from './format';
import { ScoreBar, ScoreLegend, ScoreTerms } from './score-chart';
import { chartScale } from './score-contributions';

interface CandidateTableProps {
  readonly candidates: readonly ExplainedCandidate[];
  readonly weights: PlanScoreWeights;
  /** Rows to show, best first (the chosen plan always among them); absent: every candidate. */
  readonly limit?: number;
}

function PlanCell({ candidate }: { readonly candidate: ExplainedCandidate }) {
  return (
    <>
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
    </>
  );
}

function candidateColumns(weights: PlanScoreWeights, scale: number): ColumnList<ExplainedCandidate> {
  return [
    { key: 'rank', header: '#', cell: (_candidate, index) => index + 1 },
    { key: 'plan', header: 'Plan', className: 'plan-candidate-description', cell: (candidate) => <PlanCell candidate={candidate} /> },
    { key: 'score', header: 'Score', numeric: true, className: 'strong', cell: (candidate) => formatScore(candidate.score.total) },
    {
      key: 'components',
      header: 'Components',
      className: 'score-chart-col',
      cell: (candidate) => (
        <>
          <ScoreBar candidate={candidate} scale={scale} />
          <ScoreTerms candidate={candidate} weights={weights} />
        </>
      ),
    },
    { key: 'accuracy', header: 'Accuracy', numeric: true, cell: (candidate) => formatRatio(candidate.estimates.accuracy.value) },
    { key: 'cost', header: 'Cost', numeric: true, cell: (candidate) => formatUsd(candidate.estimates.costUsd.value) },
    { key: 'latency', header: 'Latency', numeric: true, cell: (candidate) => formatSeconds(candidate.estimates.latencySeconds.value) },
    { key: 'tokens', header: 'Tokens', numeric: true, cell: (candidate) => formatTokens(candidate.estimates.tokens.value) },
  ];
}

export function CandidateTable({ candidates, weights, limit }: CandidateTableProps) {
  const shown = shownCandidates(candidates, limit);
  return (
    <>
      <ScoreLegend weights={weights} />
      <DataTable
        rows={shown}
        columns={candidateColumns(weights, chartScale(shown.map((candidate) => candidate.score)))}
        rowKey={(candidate) => candidate.id}
        rowAttributes={(candidate) => ({ className: candidateRowClass(candidate), 'data-chosen': candidate.chosen || undefined, 'data-feasible': candidate.feasible })}
        label="Candidate plans"
        testId="plan-candidates"
        scrollLabel="Candidate scores"
      />
    </>
  );
}
