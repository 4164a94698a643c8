/**
 * EXPLAIN ANALYZE with the estimator's track record beside each misestimate: a 3× miss on a field
 * whose intervals cover 90% of past runs is news, on a field with 12 samples and 40% coverage it is not.
 */
import { CONFORMAL_MIN_SAMPLES } from '../costmodel/units';
import type { EstimatedField, IntentClass } from '../types';
import type { ExplainResult, FieldCalibration, NodeCalibration } from './explain-types';

export interface CalibrationRow {
  readonly estimator: string;
  readonly count: number;
  readonly meanAbsoluteError: number;
  readonly intervalCoverage: number;
  readonly intervalWidth: number;
}

const toField = (row: CalibrationRow, intentClass: IntentClass): FieldCalibration =>
  Object.freeze({ estimator: row.estimator, intentClass, count: row.count, meanAbsoluteError: row.meanAbsoluteError, intervalCoverage: row.intervalCoverage, intervalWidth: row.intervalWidth });

/** Returns the EXPLAIN with `calibration` on the ANALYZE section and every analyzed node (unchanged without ANALYZE). */
export function attachCalibration(explain: ExplainResult, calibrationOf: (field: EstimatedField) => CalibrationRow): ExplainResult {
  if (!explain.analyze) return explain;
  const intentClass = explain.intent.primary;
  const calibration: NodeCalibration = Object.freeze({
    tokens: toField(calibrationOf('tokens'), intentClass),
    costUsd: toField(calibrationOf('costUsd'), intentClass),
    latencySeconds: toField(calibrationOf('latencySeconds'), intentClass),
  });
  return {
    ...explain,
    analyze: { ...explain.analyze, calibration, nodes: explain.analyze.nodes.map((node) => (node.actual ? { ...node, calibration } : node)) },
  };
}

/**
 * "cov 0.87 MAE 0.041 n=120", the calibration as the CLI tree and the console tables print it.
 * Below the estimator's own threshold for an interval (CONFORMAL_MIN_SAMPLES) coverage is noise —
 * after two runs it can only read 0.00, 0.50 or 1.00 — so the figure gives way to the sample count,
 * worded as the calibration dashboard words it.
 */
export function formatCalibration(calibration: FieldCalibration, formatError: (value: number) => string): string {
  if (calibration.count === 0) return 'no samples';
  if (calibration.count < CONFORMAL_MIN_SAMPLES) return `too few samples (n = ${calibration.count}) MAE ${formatError(calibration.meanAbsoluteError)}`;
  return `cov ${calibration.intervalCoverage.toFixed(2)} MAE ${formatError(calibration.meanAbsoluteError)} n=${calibration.count}`;
}
