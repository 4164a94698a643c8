/**
 * Calibration bookkeeping, PostgreSQL pg_statistic style: every run records estimate vs actual
 * for each estimated field, and `statistics()` reports per estimator, field and intent class how
 * good the estimates are. Each run is recorded twice: for the planner's estimator (heuristic-v1)
 * and for learned-v2, whose estimate is predicted from the runs before this one (prequential
 * evaluation, Dawid 1984: every v2 figure is an honest out-of-sample forecast).
 *
 * Actuals for fields that are not directly measured use documented proxies:
 *   accuracy               → 1 if verification passed (or was not required and the answer cites), else 0
 *   risk                   → 1 if verification failed or the run was rejected/failed, else 0
 *   hallucination          → 1 − groundedness score of the answer (0 when no grounding check ran: no signal)
 *   contextLoss            → tokens removed by compression and the knapsack ÷ tokens retrieved
 *   cacheHit               → share of the run's model calls served from the model-context cache when it
 *                            served any, else 1 on a plan-cache hit, else 0
 *   tokens, costUsd, latencySeconds → not observed for a run the model-context cache served a call of
 *                            (a hit spends $0: as an actual it would teach that the plan is free)
 *   verificationConfidence → the verifier's confidence
 */
import type { Observation, ObservationStorePlugin } from '../contracts/observation-store';
import type { CandidateEstimates, CandidatePlan, EstimatedField, IntentClass } from '../types';
import type { FieldStatistics } from './calibration-types';
import { learningStateFor } from './calibration-state';
import { median, quantile } from './calibration-math';
import type { RequestFeatures } from './request-features';
import { LEARNED_ESTIMATOR, planShape, type LearningObservation } from './observation-learner';

export type { FieldStatistics } from './calibration-types';

export type ObservedActuals = Partial<Record<EstimatedField, number>>;

export function summarize(field: EstimatedField, intentClass: IntentClass | 'all', observations: readonly Observation[], estimator = observations[0]?.estimator ?? ''): FieldStatistics {
  const residuals = observations.map((observation) => observation.actual - observation.estimate).sort((a, b) => a - b);
  const inside = observations.filter((observation) => observation.actual >= observation.low && observation.actual <= observation.high).length;
  const count = observations.length;
  return {
    estimator,
    field,
    intentClass,
    count,
    meanAbsoluteError: count === 0 ? 0 : residuals.reduce((sum, residual) => sum + Math.abs(residual), 0) / count,
    intervalCoverage: count === 0 ? 0 : inside / count,
    intervalWidth: median(observations.map((observation) => observation.high - observation.low)),
    p90Interval: [quantile(residuals, 0.05), quantile(residuals, 0.95)],
    lastUpdated: observations.reduce((latest, observation) => (observation.observedAt > latest ? observation.observedAt : latest), ''),
  };
}

/** Per estimator and field, overall ('all') and per intent class, sorted for display. */
export function statisticsOf(observations: readonly Observation[]): FieldStatistics[] {
  const groups = new Map<string, Observation[]>();
  for (const observation of observations) {
    for (const key of [`${observation.estimator}|${observation.field}|all`, `${observation.estimator}|${observation.field}|${observation.intentClass}`]) {
      const group = groups.get(key) ?? [];
      group.push(observation);
      groups.set(key, group);
    }
  }
  return [...groups.entries()]
    .map(([key, group]) => {
      const [estimator, field, intentClass] = key.split('|') as [string, EstimatedField, IntentClass | 'all'];
      return summarize(field, intentClass, group, estimator);
    })
    .sort((a, b) => a.estimator.localeCompare(b.estimator) || a.field.localeCompare(b.field) || a.intentClass.localeCompare(b.intentClass));
}

export interface ObservedPlan {
  readonly runId: string;
  readonly planHash: string;
  readonly intentClass: IntentClass;
  readonly estimates: CandidateEstimates;
  /** The chosen candidate: its shape keys the learned correction. Without it v2 learns per intent only. */
  readonly choice?: Pick<CandidatePlan, 'modelTier' | 'reasoning' | 'retrieval'>;
  /** Goal length, source size and top_k: what learned-v2 regresses on within a group. */
  readonly features?: RequestFeatures;
}

export class CostEstimator {
  constructor(
    private readonly store: ObservationStorePlugin,
    readonly estimator: string,
  ) {}

  /** Records estimate vs actual for every field that has an actual, for this estimator and for learned-v2. */
  async observe(plan: ObservedPlan, actuals: ObservedActuals): Promise<readonly Observation[]> {
    const observedAt = new Date().toISOString();
    const shape = plan.choice ? planShape(plan.choice) : undefined;
    const state = this.estimator === LEARNED_ESTIMATOR ? undefined : await learningStateFor(this.store, this.estimator);
    const observations: LearningObservation[] = [];
    const learned: LearningObservation[] = [];
    for (const [field, actual] of Object.entries(actuals) as [EstimatedField, number | undefined][]) {
      if (actual === undefined || !Number.isFinite(actual)) continue;
      const estimate = plan.estimates[field];
      const base = { runId: plan.runId, planHash: plan.planHash, field, intentClass: plan.intentClass, actual, observedAt, shape, features: plan.features };
      observations.push({ ...base, estimator: this.estimator, estimate: estimate.value, low: estimate.low, high: estimate.high });
      if (state) {
        const corrected = state.learner.predict(field, plan.intentClass, shape, estimate, plan.features).estimate;
        learned.push({ ...base, estimator: LEARNED_ESTIMATOR, estimate: corrected.value, low: corrected.low, high: corrected.high });
      }
    }
    await this.store.append([...observations, ...learned]);
    state?.record(observations);
    return observations;
  }

  /** This estimator's calibration, per field, overall and per intent class. */
  async statistics(): Promise<readonly FieldStatistics[]> {
    return statisticsOf((await this.store.all({ estimator: this.estimator })).filter((observation) => observation.estimator === this.estimator));
  }
}
