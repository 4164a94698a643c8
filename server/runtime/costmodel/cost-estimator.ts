/**
 * Calibration bookkeeping, PostgreSQL pg_statistic style: every run records estimate vs actual
 * for each estimated field, and `statistics()` reports per field and intent class how good the
 * estimates are. Collection starts at the first run; the learner that consumes it comes later.
 *
 * Actuals for fields that are not directly measured use documented proxies:
 *   accuracy               → 1 if verification passed (or was not required and the answer cites), else 0
 *   risk                   → 1 if verification failed or the run was rejected/failed, else 0
 *   hallucination          → 1 − groundedness score of the answer (0 when no grounding check ran: no signal)
 *   contextLoss            → tokens removed by compression and the knapsack ÷ tokens retrieved
 *   cacheHit               → 1 on a plan-cache hit, else 0
 *   verificationConfidence → the verifier's confidence
 */
import type { Observation, ObservationStorePlugin } from '../contracts/observation-store';
import type { CandidateEstimates, EstimatedField, IntentClass } from '../types';

export type ObservedActuals = Partial<Record<EstimatedField, number>>;

export interface FieldStatistics {
  readonly field: EstimatedField;
  readonly intentClass: IntentClass | 'all';
  readonly count: number;
  readonly meanAbsoluteError: number;
  /** Fraction of actuals inside the predicted [low, high]. */
  readonly intervalCoverage: number;
  /** Residual (actual − estimate) interval holding 90% of observations: [p05, p95]. */
  readonly p90Interval: readonly [number, number];
  readonly lastUpdated: string;
}

function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return 0;
  const position = (sorted.length - 1) * q;
  const lower = Math.floor(position);
  const upper = Math.ceil(position);
  return sorted[lower] + (sorted[upper] - sorted[lower]) * (position - lower);
}

export function summarize(field: EstimatedField, intentClass: IntentClass | 'all', observations: readonly Observation[]): FieldStatistics {
  const residuals = observations.map((observation) => observation.actual - observation.estimate).sort((a, b) => a - b);
  const inside = observations.filter((observation) => observation.actual >= observation.low && observation.actual <= observation.high).length;
  const count = observations.length;
  return {
    field,
    intentClass,
    count,
    meanAbsoluteError: count === 0 ? 0 : residuals.reduce((sum, residual) => sum + Math.abs(residual), 0) / count,
    intervalCoverage: count === 0 ? 0 : inside / count,
    p90Interval: [quantile(residuals, 0.05), quantile(residuals, 0.95)],
    lastUpdated: observations.reduce((latest, observation) => (observation.observedAt > latest ? observation.observedAt : latest), ''),
  };
}

export class CostEstimator {
  constructor(
    private readonly store: ObservationStorePlugin,
    readonly estimator: string,
  ) {}

  /** Records estimate vs actual for every field that has an actual. */
  async observe(plan: { readonly runId: string; readonly planHash: string; readonly intentClass: IntentClass; readonly estimates: CandidateEstimates }, actuals: ObservedActuals): Promise<readonly Observation[]> {
    const observedAt = new Date().toISOString();
    const observations: Observation[] = [];
    for (const [field, actual] of Object.entries(actuals) as [EstimatedField, number | undefined][]) {
      if (actual === undefined || !Number.isFinite(actual)) continue;
      const estimate = plan.estimates[field];
      observations.push({ runId: plan.runId, planHash: plan.planHash, estimator: this.estimator, field, intentClass: plan.intentClass, estimate: estimate.value, low: estimate.low, high: estimate.high, actual, observedAt });
    }
    await this.store.append(observations);
    return observations;
  }

  /** Per field, overall and per intent class. */
  async statistics(): Promise<readonly FieldStatistics[]> {
    const all = await this.store.all({ estimator: this.estimator });
    const groups = new Map<string, Observation[]>();
    for (const observation of all) {
      for (const key of [`${observation.field}|all`, `${observation.field}|${observation.intentClass}`]) {
        const group = groups.get(key) ?? [];
        group.push(observation);
        groups.set(key, group);
      }
    }
    return [...groups.entries()]
      .map(([key, observations]) => {
        const [field, intentClass] = key.split('|') as [EstimatedField, IntentClass | 'all'];
        return summarize(field, intentClass, observations);
      })
      .sort((a, b) => (a.field === b.field ? a.intentClass.localeCompare(b.intentClass) : a.field.localeCompare(b.field)));
  }
}
