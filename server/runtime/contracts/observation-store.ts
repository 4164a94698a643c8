import type { CalibrationReport, CalibrationReportOptions } from '../costmodel/calibration-types';
import type { EstimatedField, IntentClass } from '../types';

/** Contract version of the ObservationStore plugin (cost-model calibration data). */
export const OBSERVATION_STORE_CONTRACT = 'observation-store/v1' as const;

/** One estimate-vs-actual pair for one field of one run. */
export interface Observation {
  readonly runId: string;
  readonly planHash: string;
  readonly estimator: string;
  readonly field: EstimatedField;
  readonly intentClass: IntentClass;
  readonly estimate: number;
  readonly low: number;
  readonly high: number;
  readonly actual: number;
  readonly observedAt: string;
}

/** Persists observations; the CostEstimator computes statistics from them. */
export interface ObservationStorePlugin {
  readonly contract: typeof OBSERVATION_STORE_CONTRACT;
  append(observations: readonly Observation[]): Promise<void>;
  all(options?: { readonly estimator?: string }): Promise<readonly Observation[]>;
  /**
   * The /calibration report computed where the rows are (a database aggregates instead of shipping
   * every observation); the same figures as costmodel/calibration-report.ts over all(). Optional:
   * without it the runtime computes the report from all().
   */
  calibrationReport?(options?: CalibrationReportOptions, now?: Date): Promise<CalibrationReport>;
}
