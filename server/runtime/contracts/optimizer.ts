import type { CandidatePlan, ConstraintViolation, Constraints, RejectedCandidate, ScoredCandidate } from '../types';

/** Contract version of the Optimizer planner stage. */
export const OPTIMIZER_CONTRACT = 'optimizer/v1' as const;

export interface OptimizerResult {
  readonly chosen: ScoredCandidate;
  /** Scored candidates that survived dominance pruning, feasible first, best first. */
  readonly ranked: readonly ScoredCandidate[];
  /** Candidates pruned because another was at least as good on every estimate (PostgreSQL add_path). */
  readonly dominated?: readonly RejectedCandidate[];
  /** Optional: the same candidates, turned into records only when read (the planner prefers it to `dominated`). */
  readonly dominatedList?: DominatedList;
}

/**
 * Dominated candidates read on demand. A goal prunes ~700; a plan that is executed never lists them
 * and a stored EXPLAIN keeps the best twenty, so building every record on the request path was
 * wasted (bench:retrieval, HotpotQA: ~0.2 ms of a ~2.5 ms plan()).
 */
export interface DominatedList {
  readonly count: number;
  /** Every record, in the optimizer's order (best score first). The same array on every call. */
  records(): readonly RejectedCandidate[];
  /** The `limit` best by score, ties in records() order, best first. */
  best(limit: number): readonly RejectedCandidate[];
}

/**
 * Scored candidates as columns (optimizer/scored-table.ts): what the planner's hot loop produces
 * when the cost model gives point values, with each row's full ScoredCandidate built on demand.
 */
export interface ScoredTable {
  readonly count: number;
  readonly candidates: readonly CandidatePlan[];
  /** Point estimates, one row of FIELD_COUNT per candidate (costmodel/estimate-fields.ts order). */
  readonly values: Float64Array;
  /** PlanScore totals. */
  readonly totals: Float64Array;
  /** 1 when the row breaks no hard constraint. */
  readonly feasible: Uint8Array;
  readonly violations: readonly (readonly ConstraintViolation[])[];
  /** Row `index` as a ScoredCandidate (estimates with intervals, score components); the same object on every call. */
  scored(index: number): ScoredCandidate;
}

/** "Which feasible plan is best?" Hard constraints decide feasibility; PlanScore ranks. Throws NO_FEASIBLE_PLAN. */
export interface OptimizerPlugin {
  readonly contract: typeof OPTIMIZER_CONTRACT;
  choose(scored: readonly ScoredCandidate[], constraints: Constraints): OptimizerResult;
  /** Optional: choose() over a table, building ScoredCandidates only for what it returns as ranked. Same choice. */
  chooseFromTable?(table: ScoredTable, constraints: Constraints): OptimizerResult;
}
