/**
 * What the /calibration dashboard shows, computed from the raw observations: the pg_statistic
 * style table (estimator × field × intent class), a trend over time per estimator and field,
 * and estimate-vs-actual points for a log-log scatter.
 */
import type { Observation } from '../contracts/observation-store';
import type { EstimatedField } from '../types';
import type { CalibrationReport, CalibrationReportOptions, ScatterPoint, TrendSeries } from './calibration-types';
import { SCATTER_FIELDS } from './calibration-fields';
import { statisticsOf, summarize } from './cost-estimator';

export type { CalibrationReport, CalibrationReportOptions, ScatterPoint, TrendBucket, TrendSeries } from './calibration-types';
export { SCATTER_FIELDS } from './calibration-fields';

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
