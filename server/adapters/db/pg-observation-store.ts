import { and, asc, desc, eq, gte } from 'drizzle-orm';
import type { Database } from '../../../db/client';
import { costObservations } from '../../../db/schema';
import { OBSERVATION_STORE_CONTRACT, type ObservationStorePlugin } from '../../runtime/contracts/observation-store';
import type { CalibrationReport, CalibrationReportOptions } from '../../runtime/costmodel/calibration-types';
import type { LearningObservation } from '../../runtime/costmodel/observation-learner';
import { jsonRowsInsert } from './json-rows-insert';
import { calibrationReportInDatabase } from './pg-calibration-report';
import type { EstimatedField, IntentClass } from '../../runtime/types';

const INSERT_BATCH_ROWS = 500;

type Row = typeof costObservations.$inferSelect;

function toObservation(row: Row): LearningObservation {
  return Object.freeze({
    runId: row.runId,
    planHash: row.planHash,
    estimator: row.estimator,
    field: row.field as EstimatedField,
    intentClass: row.intentClass as IntentClass,
    estimate: row.estimate,
    low: row.low,
    high: row.high,
    actual: row.actual,
    observedAt: row.observedAt.toISOString(),
    ...(row.planShape ? { shape: row.planShape } : {}),
    // Older rows carry no features: they still count toward their group's mean.
    ...(row.goalTokens !== null && row.sourceTokens !== null && row.topK !== null ? { features: { goalTokens: row.goalTokens, sourceTokens: row.sourceTokens, topK: row.topK } } : {}),
  });
}

/**
 * Estimate-vs-actual pairs in Postgres; the CostEstimator computes its statistics from them and
 * the learned estimator reloads from them on start. The plan shape and request features ride along when present.
 */
export class PgObservationStore implements ObservationStorePlugin {
  readonly contract = OBSERVATION_STORE_CONTRACT;

  constructor(private readonly database: Database) {}

  async append(observations: readonly LearningObservation[]): Promise<void> {
    for (let start = 0; start < observations.length; start += INSERT_BATCH_ROWS) {
      const rows = observations.slice(start, start + INSERT_BATCH_ROWS).map((observation) => ({
        runId: observation.runId,
        planHash: observation.planHash,
        estimator: observation.estimator,
        field: observation.field,
        intentClass: observation.intentClass,
        estimate: observation.estimate,
        low: observation.low,
        high: observation.high,
        actual: observation.actual,
        observedAt: new Date(observation.observedAt),
        planShape: observation.shape ?? null,
        goalTokens: observation.features ? Math.round(observation.features.goalTokens) : null,
        sourceTokens: observation.features?.sourceTokens ?? null,
        topK: observation.features ? Math.round(observation.features.topK) : null,
      }));
      await this.database.query(jsonRowsInsert(costObservations, rows));
    }
  }

  /** Oldest first, so statistics that weight recent runs can fold left to right. */
  async all(options: { readonly estimator?: string } = {}): Promise<readonly LearningObservation[]> {
    const rows = await this.database.db
      .select()
      .from(costObservations)
      .where(options.estimator ? eq(costObservations.estimator, options.estimator) : undefined)
      .orderBy(asc(costObservations.observedAt), asc(costObservations.id));
    return Object.freeze(rows.map(toObservation));
  }

  /** Aggregated in SQL (pg-calibration-report.ts): the table is never loaded whole. */
  calibrationReport(options: CalibrationReportOptions = {}, now = new Date()): Promise<CalibrationReport> {
    return calibrationReportInDatabase(this.database, options, now);
  }

  /** The newest observations of one field (the dashboard's scatter), newest first. */
  async recent(options: { readonly field: EstimatedField; readonly estimator?: string; readonly since?: Date; readonly limit: number }): Promise<readonly LearningObservation[]> {
    const rows = await this.database.db
      .select()
      .from(costObservations)
      .where(and(eq(costObservations.field, options.field), options.estimator ? eq(costObservations.estimator, options.estimator) : undefined, options.since ? gte(costObservations.observedAt, options.since) : undefined))
      .orderBy(desc(costObservations.observedAt), desc(costObservations.id))
      .limit(options.limit);
    return Object.freeze(rows.map(toObservation));
  }
}
