import type { CandidateEstimates, CandidatePlan, Intent, PlanScore, PlanScoreWeights } from '../types';
import type { PlanningContext } from './candidate-generator';

/** Contract version of the CostModel planner stage. */
export const COST_MODEL_CONTRACT = 'cost-model/v1' as const;

/** Per-candidate estimates with intervals, and the PlanScore over them. */
export interface CostModelPlugin {
  readonly contract: typeof COST_MODEL_CONTRACT;
  /** Estimator version shown in EXPLAIN ("heuristic-v1"). */
  readonly version: string;
  estimate(candidate: CandidatePlan, intent: Intent, context: PlanningContext): CandidateEstimates;
  score(estimates: CandidateEstimates, weights: PlanScoreWeights): PlanScore;
  /**
   * Optional, with scoreValues: the point values of estimate() alone, written to
   * out[offset…offset + 8] in costmodel/estimate-fields.ts order. The planner then scores, tests
   * constraints and prunes ~1,000 candidates from the values and builds estimate() only for the
   * plans that survive, so both must give the same numbers (a model without them is planned
   * through estimate() and score() for every candidate).
   */
  estimateValues?(candidate: CandidatePlan, intent: Intent, context: PlanningContext, out: Float64Array, offset: number): void;
  /** score(…).total from a row of point values: the same number. */
  scoreValues?(values: Float64Array, offset: number, weights: PlanScoreWeights): number;
}
