import type { Constraints, ScoredCandidate } from '../types';

/** Contract version of the Optimizer planner stage. */
export const OPTIMIZER_CONTRACT = 'optimizer/v1' as const;

export interface OptimizerResult {
  readonly chosen: ScoredCandidate;
  /** All scored candidates, feasible first, best first. */
  readonly ranked: readonly ScoredCandidate[];
}

/** "Which feasible plan is best?" Hard constraints decide feasibility; PlanScore ranks. Throws NO_FEASIBLE_PLAN. */
export interface OptimizerPlugin {
  readonly contract: typeof OPTIMIZER_CONTRACT;
  choose(scored: readonly ScoredCandidate[], constraints: Constraints): OptimizerResult;
}
