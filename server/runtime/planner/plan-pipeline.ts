import type { CandidateGeneratorPlugin, PlanningContext } from '../contracts/candidate-generator';
import type { CostModelPlugin } from '../contracts/cost-model';
import type { IntentAnalyzerPlugin } from '../contracts/intent-analyzer';
import type { OptimizerPlugin, OptimizerResult } from '../contracts/optimizer';
import { checkConstraints } from '../constraints/hard-constraints';
import { ContextRuntimeError, isContextRuntimeError } from '../errors';
import { noFeasiblePlan } from '../optimizer/plan-optimizer';
import type { Constraints, Intent, PlanScoreWeights, RejectedCandidate, ScoredCandidate } from '../types';

/**
 * The pure planning function: Intent Analyzer → Candidate Generator → Cost Model →
 * constraints → Optimizer. No I/O; everything it knows arrives in the PlanningContext,
 * so the same inputs always give the same chosen plan (the plan cache relies on it).
 */

export interface PlanGoalInput {
  /** The goal; analysed unless `intent` is given (e.g. from a plan-cache entry). */
  readonly goal?: string;
  readonly intent?: Intent;
  readonly context: PlanningContext;
  readonly constraints: Constraints;
  /** Already resolved (see costmodel/plan-score.ts resolveWeights). */
  readonly weights: PlanScoreWeights;
  readonly analyzer: IntentAnalyzerPlugin;
  readonly generator: CandidateGeneratorPlugin;
  readonly costModel: CostModelPlugin;
  readonly optimizer: OptimizerPlugin;
}

export interface PlanTimings {
  readonly analyzeMs: number;
  readonly generateMs: number;
  readonly estimateMs: number;
  readonly optimizeMs: number;
  readonly totalMs: number;
}

export interface PlanGoalResult {
  readonly intent: Intent;
  /** Scored survivors, feasible first, best first (dominated plans are in `rejected`). */
  readonly candidates: readonly ScoredCandidate[];
  readonly rejected: readonly RejectedCandidate[];
  readonly enumerated: number;
  readonly chosen: ScoredCandidate;
  readonly costModelVersion: string;
  readonly timings: PlanTimings;
}

export function planGoal(input: PlanGoalInput): PlanGoalResult {
  const { context, constraints, weights, costModel } = input;
  const started = performance.now();
  let intent = input.intent;
  if (!intent) {
    if (input.goal === undefined) throw new ContextRuntimeError('INTERNAL', 'planGoal needs a goal or an intent');
    intent = input.analyzer.analyze(input.goal);
  }
  const analyzed = performance.now();

  const generated = input.generator.generate(intent, context);
  const generatedAt = performance.now();

  const scored: ScoredCandidate[] = new Array(generated.candidates.length);
  for (let index = 0; index < generated.candidates.length; index++) {
    const candidate = generated.candidates[index];
    const estimates = costModel.estimate(candidate, intent, context);
    const violations = checkConstraints(estimates, candidate, constraints, context, intent);
    scored[index] = { candidate, estimates, score: costModel.score(estimates, weights), feasible: violations.length === 0, violations };
  }
  const estimated = performance.now();

  if (scored.length === 0) {
    throw noFeasiblePlan(scored, constraints, {
      enumerated: generated.enumerated,
      rejected: generated.rejected,
      why: 'every enumerated candidate was cut by a capability, policy or intent rule',
    });
  }
  let result: OptimizerResult;
  try {
    result = input.optimizer.choose(scored, constraints);
  } catch (error) {
    if (isContextRuntimeError(error) && error.code === 'NO_FEASIBLE_PLAN') {
      Object.assign(error.details, { enumerated: generated.enumerated, rejected: generated.rejected });
    }
    throw error;
  }
  const optimized = performance.now();

  const dominated = (result as { dominated?: readonly RejectedCandidate[] }).dominated ?? [];
  return {
    intent,
    candidates: result.ranked,
    rejected: dominated.length > 0 ? [...generated.rejected, ...dominated] : generated.rejected,
    enumerated: generated.enumerated,
    chosen: result.chosen,
    costModelVersion: costModel.version,
    timings: {
      analyzeMs: analyzed - started,
      generateMs: generatedAt - analyzed,
      estimateMs: estimated - generatedAt,
      optimizeMs: optimized - estimated,
      totalMs: optimized - started,
    },
  };
}
