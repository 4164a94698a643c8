/**
 * The shapes of the calibration statistics and the /calibration dashboard's report: a plain type
 * module, so the API and the page can name them without importing the estimator (which would put
 * it in the browser bundle; see the layer rules in eslint.config.mjs).
 */
import type { EstimatedField, IntentClass } from '../types';

export interface FieldStatistics {
  readonly estimator: string;
  readonly field: EstimatedField;
  readonly intentClass: IntentClass | 'all';
  readonly count: number;
  readonly meanAbsoluteError: number;
  /** Fraction of actuals inside the predicted [low, high] (the p05–p95 interval: 0.9 is calibrated). */
  readonly intervalCoverage: number;
  /** Median width (high − low) of the predicted p90 intervals, in the field's unit. */
  readonly intervalWidth: number;
  /** Residual (actual − estimate) interval holding 90% of observations: [p05, p95]. */
  readonly p90Interval: readonly [number, number];
  readonly lastUpdated: string;
}

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
