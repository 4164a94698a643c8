import type { Constraints, RejectedCandidate, ScoredCandidate } from '../types';

/** Contract version of the Optimizer planner stage. */
export const OPTIMIZER_CONTRACT = 'optimizer/v1' as const;

export interface OptimizerResult {
  readonly chosen: ScoredCandidate;
  /** Scored candidates that survived dominance pruning, feasible first, best first. */
  readonly ranked: readonly ScoredCandidate[];
  /** Candidates pruned because another was at least as good on every estimate (PostgreSQL add_path). */
  readonly dominated?: readonly RejectedCandidate[];
}

/** "Which feasible plan is best?" Hard constraints decide feasibility; PlanScore ranks. Throws NO_FEASIBLE_PLAN. */
export interface OptimizerPlugin {
  readonly contract: typeof OPTIMIZER_CONTRACT;
  choose(scored: readonly ScoredCandidate[], constraints: Constraints): OptimizerResult;
}
