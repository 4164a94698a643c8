/**
 * Arms are plan shapes, not candidate ids: retrieval method set + model tier + reasoning. Two
 * candidates that differ only in compression or top-k share an arm, so what the bandit learns
 * transfers across requests whose candidate lists differ (a candidate id never recurs that way).
 */
import type { CandidatePlan, ScoredCandidate } from '../types';

/** A mixed-tier debate is its own arm: its solvers' tiers change what it costs and how well it answers. */
export const armOf = (plan: Pick<CandidatePlan, 'retrieval' | 'modelTier' | 'reasoning' | 'solverTiers'>): string =>
  `${[...new Set(plan.retrieval)].sort().join('+')}|${plan.modelTier}|${plan.reasoning}${plan.solverTiers ? `[${plan.solverTiers.join(',')}]` : ''}`;

/**
 * The first `limit` distinct arms among the feasible candidates, each represented by its best
 * candidate by PlanScore. The input is the optimizer's order (feasible first, best first), so the
 * bandit only ever picks among plans the hard constraints allow and the cost model ranks high.
 */
export interface PlanArm {
  readonly arm: string;
  readonly candidate: ScoredCandidate;
}

export function topArms(ranked: readonly ScoredCandidate[], limit: number): PlanArm[] {
  const arms: PlanArm[] = [];
  const seen = new Set<string>();
  for (const candidate of ranked) {
    if (!candidate.feasible) continue;
    const arm = armOf(candidate.candidate);
    if (seen.has(arm)) continue;
    seen.add(arm);
    arms.push({ arm, candidate });
    if (arms.length === limit) break;
  }
  return arms;
}
