import type { ExplainedCandidate } from '@/server/runtime/explain/explain-types';

/**
 * The candidates a table shows: the first `limit` (best first), and the chosen plan even when a
 * later version of the planner orders it past the cut. No limit: every candidate.
 */
export function shownCandidates(candidates: readonly ExplainedCandidate[], limit?: number): readonly ExplainedCandidate[] {
  if (limit === undefined || candidates.length <= limit) return candidates;
  const shown = candidates.slice(0, limit);
  const chosen = candidates.find((candidate) => candidate.chosen);
  if (chosen && !shown.includes(chosen)) shown.push(chosen);
  return shown;
}

/** A row's class: the chosen plan highlighted, an infeasible one muted. */
export function candidateRowClass(candidate: Pick<ExplainedCandidate, 'chosen' | 'feasible'>): string | undefined {
  if (candidate.chosen) return 'chosen';
  return candidate.feasible ? undefined : 'infeasible';
}
