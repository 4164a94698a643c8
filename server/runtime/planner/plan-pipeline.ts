import type { CandidateGeneratorPlugin, PlanningContext } from '../contracts/candidate-generator';
import type { CostModelPlugin } from '../contracts/cost-model';
import type { IntentAnalyzerPlugin } from '../contracts/intent-analyzer';
import type { OptimizerPlugin, OptimizerResult, ScoredTable } from '../contracts/optimizer';
import { checkConstraintValues, checkConstraints } from '../constraints/hard-constraints';
import { FIELD, FIELD_COUNT } from '../costmodel/estimate-fields';
import { ScoredCandidateRecord } from '../costmodel/plan-records';
import { ColumnTable } from '../optimizer/scored-table';
import { dominatedListOf } from '../optimizer/dominated-list';
import { allRejected, type RejectionParts } from '../explain/rejection-parts';
import { ContextRuntimeError, isContextRuntimeError } from '../errors';
import { noFeasiblePlan } from '../optimizer/plan-optimizer';
import type { CandidatePlan, ConstraintViolation, Constraints, Intent, PlanScoreWeights, RejectedCandidate, ScoredCandidate } from '../types';

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
  /** Every rejected candidate (built on first read from `rejections`). */
  readonly rejected: readonly RejectedCandidate[];
  readonly rejections: RejectionParts;
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

  const candidates = generated.candidates;
  if (candidates.length === 0) {
    throw noFeasiblePlan([], constraints, {
      enumerated: generated.enumerated,
      rejected: generated.rejected,
      why: 'every enumerated candidate was cut by a capability, policy or intent rule',
    });
  }
  const { optimizer } = input;
  const fromValues = costModel.estimateValues && costModel.scoreValues && optimizer.chooseFromTable;
  const table = fromValues ? valueTable(candidates, intent, context, constraints, weights, costModel) : undefined;
  const scored = table ? undefined : scoreEach(candidates, intent, context, constraints, weights, costModel);
  const estimated = performance.now();

  let result: OptimizerResult;
  try {
    result = table ? optimizer.chooseFromTable!(table, constraints) : optimizer.choose(scored!, constraints);
  } catch (error) {
    if (isContextRuntimeError(error) && error.code === 'NO_FEASIBLE_PLAN') {
      Object.assign(error.details, { enumerated: generated.enumerated, rejected: generated.rejected });
    }
    throw error;
  }
  const optimized = performance.now();

  const dominated = result.dominatedList ?? (result.dominated && result.dominated.length > 0 ? dominatedListOf(result.dominated) : undefined);
  const rejections: RejectionParts = dominated ? { generated: generated.rejected, dominated } : { generated: generated.rejected };
  let rejected: readonly RejectedCandidate[] | undefined;
  return {
    intent,
    candidates: result.ranked,
    get rejected() {
      return (rejected ??= allRejected(rejections));
    },
    rejections,
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

/** Every candidate estimated and scored as objects: for a cost model or optimizer without the value path. */
function scoreEach(candidates: readonly CandidatePlan[], intent: Intent, context: PlanningContext, constraints: Constraints, weights: PlanScoreWeights, costModel: CostModelPlugin): ScoredCandidate[] {
  const scored: ScoredCandidate[] = new Array(candidates.length);
  for (let index = 0; index < candidates.length; index++) {
    const candidate = candidates[index];
    const estimates = costModel.estimate(candidate, intent, context);
    const violations = checkConstraints(estimates, candidate, constraints, context, intent);
    scored[index] = new ScoredCandidateRecord(candidate, estimates, costModel.score(estimates, weights), violations.length === 0, violations);
  }
  return scored;
}

/**
 * The same scoring from point values: ~1,000 candidates a goal, of which a few dozen survive
 * dominance. Only those (and, with no feasible plan, the nearest misses) get their estimate
 * objects and score components, built by the model's own estimate() and score().
 */
function valueTable(candidates: readonly CandidatePlan[], intent: Intent, context: PlanningContext, constraints: Constraints, weights: PlanScoreWeights, costModel: CostModelPlugin): ScoredTable {
  const count = candidates.length;
  const values = new Float64Array(count * FIELD_COUNT);
  const totals = new Float64Array(count);
  const feasible = new Uint8Array(count);
  const violations: (readonly ConstraintViolation[])[] = new Array(count);
  for (let index = 0; index < count; index++) {
    const candidate = candidates[index];
    const offset = index * FIELD_COUNT;
    costModel.estimateValues!(candidate, intent, context, values, offset);
    const broken = checkConstraintValues(values[offset + FIELD.costUsd], values[offset + FIELD.latencySeconds], values[offset + FIELD.tokens], candidate, constraints, context, intent);
    violations[index] = broken;
    feasible[index] = broken.length === 0 ? 1 : 0;
    totals[index] = costModel.scoreValues!(values, offset, weights);
  }
  return new ColumnTable(candidates, values, totals, feasible, violations, (index) => {
    const candidate = candidates[index];
    const estimates = costModel.estimate(candidate, intent, context);
    return new ScoredCandidateRecord(candidate, estimates, costModel.score(estimates, weights), feasible[index] === 1, violations[index]);
  });
}
