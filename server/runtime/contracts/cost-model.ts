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
}
