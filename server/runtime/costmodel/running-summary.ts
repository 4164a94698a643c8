/**
 * One field × intent class's calibration kept up to date observation by observation: the figures
 * `summarize` computes from the whole list (cost-estimator.ts), without re-reading it. Residuals
 * and interval widths stay sorted (a binary-searched insert each), so the quantiles are exact.
 */
import type { Observation } from '../contracts/observation-store';
import type { EstimatedField, IntentClass } from '../types';
import type { FieldStatistics } from './calibration-types';
import { quantile } from './calibration-math';

type Summarized = Pick<Observation, 'actual' | 'estimate' | 'low' | 'high' | 'observedAt'>;

const ascending = (left: number, right: number) => left - right;

/** Inserts `value` into the ascending `sorted`, after any equal values. */
function insertSorted(sorted: number[], value: number): void {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (sorted[middle] <= value) low = middle + 1;
    else high = middle;
  }
  sorted.splice(low, 0, value);
}

export class RunningSummary {
  private readonly residuals: number[] = [];
  private readonly widths: number[] = [];
  private absoluteErrorSum = 0;
  private inside = 0;
  private lastUpdated = '';

  /** A summary of `observations` at once: sorted once, not inserted one by one. */
  static from(observations: readonly Summarized[]): RunningSummary {
    const summary = new RunningSummary();
    for (const observation of observations) summary.count(observation, (list, value) => list.push(value));
    summary.residuals.sort(ascending);
    summary.widths.sort(ascending);
    return summary;
  }

  add(observation: Summarized): void {
    this.count(observation, insertSorted);
  }

  statistics(field: EstimatedField, intentClass: IntentClass | 'all', estimator: string): FieldStatistics {
    const count = this.residuals.length;
    return {
      estimator,
      field,
      intentClass,
      count,
      meanAbsoluteError: count === 0 ? 0 : this.absoluteErrorSum / count,
      intervalCoverage: count === 0 ? 0 : this.inside / count,
      intervalWidth: quantile(this.widths, 0.5),
      p90Interval: [quantile(this.residuals, 0.05), quantile(this.residuals, 0.95)],
      lastUpdated: this.lastUpdated,
    };
  }

  private count(observation: Summarized, put: (list: number[], value: number) => void): void {
    const residual = observation.actual - observation.estimate;
    put(this.residuals, residual);
    put(this.widths, observation.high - observation.low);
    this.absoluteErrorSum += Math.abs(residual);
    if (observation.actual >= observation.low && observation.actual <= observation.high) this.inside += 1;
    if (observation.observedAt > this.lastUpdated) this.lastUpdated = observation.observedAt;
  }
}
