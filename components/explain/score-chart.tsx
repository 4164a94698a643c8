/**
 * A candidate's PlanScore as signed weighted contributions (benefits right of zero, penalties
 * left), so "why this plan?" reads at a glance, with the eight components (0–1) under the bar.
 */
import type { ExplainedCandidate } from '@/server/runtime/explain/explain-types';
import type { PlanScoreWeights } from '@/server/runtime/types';
import { formatScore } from './format';
import { contributions, SCORE_TERMS } from './score-contributions';
import './plan-charts.css';

export function ScoreBar({ candidate, scale }: { readonly candidate: ExplainedCandidate; readonly scale: number }) {
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
export function ScoreTerms({ candidate, weights }: { readonly candidate: ExplainedCandidate; readonly weights: PlanScoreWeights }) {
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

/** What each colour is and its weight; the bars say the same in their accessible names. */
export function ScoreLegend({ weights }: { readonly weights: PlanScoreWeights }) {
  return (
    <div className="score-legend" aria-hidden="true">
      {SCORE_TERMS.map((term) => (
        <span key={term.key}>
          <span className={`score-swatch term-${term.key}`} /> {term.label} ×{weights[term.key]}
        </span>
      ))}
      <span className="muted">penalties ← 0 → benefits</span>
    </div>
  );
}
