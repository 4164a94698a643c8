/**
 * What the /calibration dashboard shows, computed from the raw observations: the pg_statistic
 * style table (estimator × field × intent class), a trend over time per estimator and field,
 * and estimate-vs-actual points for a log-log scatter.
 */
import type { Observation } from '../contracts/observation-store';
import type { EstimatedField, IntentClass } from '../types';
import { statisticsOf, summarize, type FieldStatistics } from './cost-estimator';

export interface TrendBucket {
  /** ISO start of the bucket. */
  readonly start: string;
  readonly count: number;
  readonly meanAbsoluteError: number;
  readonly intervalCoverage: number;
  readonly intervalWidth: number;
}

export interface TrendSeries {
  readonly estimator: string;
  readonly field: EstimatedField;
  readonly buckets: readonly TrendBucket[];
}

export interface ScatterPoint {
  readonly estimator: string;
  readonly field: EstimatedField;
  readonly intentClass: IntentClass;
  readonly estimate: number;
  readonly actual: number;
  readonly low: number;
  readonly high: number;
  readonly observedAt: string;
}

export interface CalibrationReport {
  readonly generatedAt: string;
  readonly observations: number;
  readonly estimators: readonly string[];
  readonly statistics: readonly FieldStatistics[];
  readonly trend: readonly TrendSeries[];
  readonly scatter: readonly ScatterPoint[];
}

export interface CalibrationReportOptions {
  /** Time buckets per trend series (default 12). */
  readonly buckets?: number;
  /** Newest points per estimator and field in the scatter (default 300). */
  readonly scatterLimit?: number;
}

/** Fields the scatter plots: amounts spanning orders of magnitude, which is what log axes are for. */
export const SCATTER_FIELDS: readonly EstimatedField[] = ['tokens', 'latencySeconds', 'costUsd'];

function trendOf(estimator: string, field: EstimatedField, observations: readonly Observation[], bucketCount: number): TrendSeries {
  const times = observations.map((observation) => Date.parse(observation.observedAt));
  const first = Math.min(...times);
  const span = Math.max(...times) - first;
  // At least a minute per bucket: finer slices of a burst of runs would hold one run each.
  const size = Math.max(60_000, Math.ceil((span + 1) / bucketCount));
  const slices = new Map<number, Observation[]>();
  observations.forEach((observation, index) => {
    const slot = Math.floor((times[index] - first) / size);
    const slice = slices.get(slot) ?? [];
    slice.push(observation);
    slices.set(slot, slice);
  });
  const buckets = [...slices.entries()]
    .sort(([left], [right]) => left - right)
    .map(([slot, group]) => {
      const summary = summarize(field, 'all', group, estimator);
      return { start: new Date(first + slot * size).toISOString(), count: summary.count, meanAbsoluteError: summary.meanAbsoluteError, intervalCoverage: summary.intervalCoverage, intervalWidth: summary.intervalWidth };
    });
  return { estimator, field, buckets };
}

export function calibrationReport(observations: readonly Observation[], options: CalibrationReportOptions = {}, now = new Date()): CalibrationReport {
  const bucketCount = options.buckets ?? 12;
  const scatterLimit = options.scatterLimit ?? 300;
  const series = new Map<string, Observation[]>();
  for (const observation of observations) {
    const key = `${observation.estimator}|${observation.field}`;
    const group = series.get(key) ?? [];
    group.push(observation);
    series.set(key, group);
  }
  const trend: TrendSeries[] = [];
  const scatter: ScatterPoint[] = [];
  for (const [key, group] of [...series.entries()].sort(([left], [right]) => left.localeCompare(right))) {
    const [estimator, field] = key.split('|') as [string, EstimatedField];
    trend.push(trendOf(estimator, field, group, bucketCount));
    if (!SCATTER_FIELDS.includes(field)) continue;
    for (const observation of group.slice(-scatterLimit)) {
      scatter.push({ estimator, field, intentClass: observation.intentClass, estimate: observation.estimate, actual: observation.actual, low: observation.low, high: observation.high, observedAt: observation.observedAt });
    }
  }
  return {
    generatedAt: now.toISOString(),
    observations: observations.length,
    estimators: [...new Set(observations.map((observation) => observation.estimator))].sort(),
    statistics: statisticsOf(observations),
    trend,
    scatter,
  };
}
