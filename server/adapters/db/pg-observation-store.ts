import { asc, eq } from 'drizzle-orm';
import type { Database } from '../../../db/client';
import { costObservations } from '../../../db/schema';
import { OBSERVATION_STORE_CONTRACT, type Observation, type ObservationStorePlugin } from '../../runtime/contracts/observation-store';
import type { EstimatedField, IntentClass } from '../../runtime/types';

const INSERT_BATCH_ROWS = 500;

/** Estimate-vs-actual pairs in Postgres; the CostEstimator computes its statistics from them. */
export class PgObservationStore implements ObservationStorePlugin {
  readonly contract = OBSERVATION_STORE_CONTRACT;

  constructor(private readonly database: Database) {}

  async append(observations: readonly Observation[]): Promise<void> {
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
      }));
      await this.database.db.insert(costObservations).values(rows);
    }
  }

  /** Oldest first, so statistics that weight recent runs can fold left to right. */
  async all(options: { readonly estimator?: string } = {}): Promise<readonly Observation[]> {
    const rows = await this.database.db
      .select()
      .from(costObservations)
      .where(options.estimator ? eq(costObservations.estimator, options.estimator) : undefined)
      .orderBy(asc(costObservations.observedAt), asc(costObservations.id));
    return Object.freeze(
      rows.map((row) =>
        Object.freeze({
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
        }),
      ),
    );
  }
}
