/**
 * The cost model the optimizer plans with when learning is on (issue 16.2): the heuristic's
 * estimates (the prior) corrected by learned-v2 (observation-learner.ts) for cost, latency, tokens
 * and accuracy, per intent class and plan shape (model tier, reasoner, retrieval methods). The
 * correction is the residuals' mean shrunk by n / (n + PRIOR_PSEUDO_SAMPLES) (units.ts), so with few
 * runs the heuristic dominates and with none it decides alone: a field with no observation keeps
 * the prior's estimate exactly, and an untrained runtime plans as heuristic-v1 would.
 *
 * Runs are still recorded against the prior's estimates (ExplainResult.estimator.prior), so what
 * the learner sees stays the heuristic's error and a correction never feeds on itself.
 */
import type { PlanningContext } from '../contracts/candidate-generator';
import { COST_MODEL_CONTRACT, type CostModelPlugin } from '../contracts/cost-model';
import type { CandidateEstimates, CandidatePlan, EstimatedField, Intent, PlanScore, PlanScoreWeights } from '../types';
import { LEARNED_ESTIMATOR, type LearnedGroup, type ObservationLearner, type ValueCorrection, applyValueCorrection, planShape } from './observation-learner';
import { FIELD } from './estimate-fields';
import { estimateSetOf } from './plan-records';
import { type RequestFeatures, featureVector, requestFeatures } from './request-features';

/** The fields the optimizer reads learned values for; the rest (risk, hallucination…) stay the prior's. */
export const LEARNED_FIELDS = ['costUsd', 'latencySeconds', 'tokens', 'accuracy'] as const satisfies readonly EstimatedField[];

export type LearnedField = (typeof LEARNED_FIELDS)[number];

/** Their columns in a row of point values (estimate-fields.ts). */
const LEARNED_COLUMNS: readonly number[] = LEARNED_FIELDS.map((field) => FIELD[field]);

/** What EXPLAIN says about the estimator behind the chosen plan's numbers. */
export interface EstimatorExplain {
  /** learned-v2 when any field of the chosen plan was corrected by observations, else the prior's version. */
  readonly name: string;
  readonly prior: string;
  /** Fewest observations behind any learned field of the chosen plan (0: the prior alone decided). */
  readonly samples: number;
  readonly fields: Readonly<Record<LearnedField, { readonly samples: number; readonly group: LearnedGroup }>>;
  /** The prior's estimates of the chosen plan: what a finished run is observed against. */
  readonly priorEstimates: Pick<CandidateEstimates, LearnedField>;
  /** Goal length, source size and top_k of the chosen plan: stored with the run's observations. */
  readonly features: RequestFeatures;
}

export class LearnedCostModel implements CostModelPlugin {
  readonly contract = COST_MODEL_CONTRACT;
  /** The prior's version: observations and calibration stay filed under the estimator they correct. */
  readonly version: string;

  /**
   * The value path (contracts/cost-model.ts) when the prior has one: the prior's point values, the
   * learned fields moved by learned-v2 (ObservationLearner.valueCorrection: the value predict() gives).
   */
  readonly estimateValues?: CostModelPlugin['estimateValues'];
  readonly scoreValues?: CostModelPlugin['scoreValues'];

  constructor(
    private readonly prior: CostModelPlugin,
    private readonly learner: ObservationLearner,
  ) {
    this.version = prior.version;
    this.observed = LEARNED_FIELDS.some((field) => learner.count(field) > 0);
    this.memo = new PlanningMemo(learner);
    if (prior.estimateValues && prior.scoreValues) {
      // Arrows, not bind() or rest arguments: V8 inlines them into the planner's loop (~1,000 calls a goal).
      this.estimateValues = this.observed
        ? (candidate, intent, context, out, offset) => this.learnedValues(candidate, intent, context, out, offset)
        : (candidate, intent, context, out, offset) => prior.estimateValues!(candidate, intent, context, out, offset);
      this.scoreValues = (values, offset, weights) => prior.scoreValues!(values, offset, weights);
    }
  }

  private readonly observed: boolean;
  private readonly memo: PlanningMemo;

  estimate(candidate: CandidatePlan, intent: Intent, context: PlanningContext): CandidateEstimates {
    const base = this.prior.estimate(candidate, intent, context);
    // Nothing observed for any field: the prior alone, at the prior's cost (bench:plan-overhead).
    if (!this.observed) return base;
    const shape = planShape(candidate);
    const features = requestFeatures(candidate, intent, context);
    let corrected: Partial<Record<LearnedField, CandidateEstimates[LearnedField]>> | undefined;
    for (const field of LEARNED_FIELDS) {
      const learned = this.learner.predict(field, intent.primary, shape, base[field], features);
      if (learned.samples === 0) continue;
      (corrected ??= {})[field] = learned.estimate;
    }
    if (!corrected) return base;
    const learned = corrected;
    // A record, not a spread literal (plan-records.ts says why).
    return estimateSetOf((field) => learned[field as LearnedField] ?? base[field]);
  }

  score(estimates: CandidateEstimates, weights: PlanScoreWeights): PlanScore {
    return this.prior.score(estimates, weights);
  }

  private learnedValues(candidate: CandidatePlan, intent: Intent, context: PlanningContext, out: Float64Array, offset: number): void {
    this.prior.estimateValues!(candidate, intent, context, out, offset);
    const corrections = this.memo.corrections(candidate, intent, context);
    const vector = this.memo.vector(candidate, intent, context);
    for (let index = 0; index < LEARNED_COLUMNS.length; index++) {
      const correction = corrections[index];
      if (!correction) continue;
      const column = offset + LEARNED_COLUMNS[index];
      out[column] = applyValueCorrection(correction, out[column], vector);
    }
  }

  /** EXPLAIN's estimator section for the chosen plan. */
  explain(candidate: CandidatePlan, intent: Intent, context: PlanningContext): EstimatorExplain {
    return estimatorExplain(this.prior, candidate, intent, context, this.learner);
  }
}

export function estimatorExplain(prior: CostModelPlugin, candidate: CandidatePlan, intent: Intent, context: PlanningContext, learner?: ObservationLearner): EstimatorExplain {
  const base = prior.estimate(candidate, intent, context);
  const shape = planShape(candidate);
  const features = requestFeatures(candidate, intent, context);
  const fields = Object.fromEntries(
    LEARNED_FIELDS.map((field) => {
      const learned = learner?.predict(field, intent.primary, shape, base[field], features);
      return [field, { samples: learned?.samples ?? 0, group: learned?.group ?? 'prior' }];
    }),
  ) as EstimatorExplain['fields'];
  const counts = LEARNED_FIELDS.map((field) => fields[field].samples);
  return {
    name: counts.some((count) => count > 0) ? LEARNED_ESTIMATOR : prior.version,
    prior: prior.version,
    samples: Math.min(...counts),
    fields,
    priorEstimates: { costUsd: base.costUsd, latencySeconds: base.latencySeconds, tokens: base.tokens, accuracy: base.accuracy },
    features,
  };
}

/**
 * One goal's corrections and feature vectors for the value path: its ~1,000 candidates share a
 * handful of plan shapes (tier, reasoner, the generator's shared retrieval arrays) and scopes, so
 * each is resolved once (a planning context and intent at a time; another one starts afresh).
 */
class PlanningMemo {
  private intent?: Intent;
  private context?: PlanningContext;
  private readonly byShape = new Map<string, Map<string, Map<readonly string[], readonly (ValueCorrection | undefined)[]>>>();
  private readonly vectors = new Map<CandidatePlan['sourceKinds'], Map<number, readonly number[]>>();

  constructor(private readonly learner: ObservationLearner) {}

  corrections(candidate: CandidatePlan, intent: Intent, context: PlanningContext): readonly (ValueCorrection | undefined)[] {
    this.reset(intent, context);
    let byReasoning = this.byShape.get(candidate.modelTier);
    if (!byReasoning) this.byShape.set(candidate.modelTier, (byReasoning = new Map()));
    let byRetrieval = byReasoning.get(candidate.reasoning);
    if (!byRetrieval) byReasoning.set(candidate.reasoning, (byRetrieval = new Map()));
    let corrections = byRetrieval.get(candidate.retrieval);
    if (!corrections) {
      const shape = planShape(candidate);
      corrections = LEARNED_FIELDS.map((field) => this.learner.valueCorrection(field, intent.primary, shape));
      byRetrieval.set(candidate.retrieval, corrections);
    }
    return corrections;
  }

  vector(candidate: CandidatePlan, intent: Intent, context: PlanningContext): readonly number[] {
    this.reset(intent, context);
    let byTopK = this.vectors.get(candidate.sourceKinds);
    if (!byTopK) this.vectors.set(candidate.sourceKinds, (byTopK = new Map()));
    let vector = byTopK.get(candidate.topK);
    if (!vector) byTopK.set(candidate.topK, (vector = featureVector(requestFeatures(candidate, intent, context))));
    return vector;
  }

  private reset(intent: Intent, context: PlanningContext): void {
    if (intent === this.intent && context === this.context) return;
    this.intent = intent;
    this.context = context;
    this.byShape.clear();
    this.vectors.clear();
  }
}
