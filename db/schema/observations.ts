import { bigserial, doublePrecision, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** Estimate-vs-actual pairs: the cost model's calibration data (one row per field per run). */
export const costObservations = pgTable(
  'cost_observations',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    runId: text('run_id').notNull(),
    planHash: text('plan_hash').notNull(),
    estimator: text('estimator').notNull(),
    field: text('field').notNull(),
    intentClass: text('intent_class').notNull(),
    estimate: doublePrecision('estimate').notNull(),
    low: doublePrecision('low').notNull(),
    high: doublePrecision('high').notNull(),
    actual: doublePrecision('actual').notNull(),
    observedAt: timestamp('observed_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    /** Tier/reasoner/retrieval of the chosen plan: the learned estimator corrects per shape (migration 0010). */
    planShape: text('plan_shape'),
    /** Request features learned-v2 regresses on within a group (issue 16.3); null on older rows (group mean only). */
    goalTokens: integer('goal_tokens'),
    sourceTokens: doublePrecision('source_tokens'),
    topK: integer('top_k'),
  },
  (table) => [index('cost_observations_estimator_idx').on(table.estimator), index('cost_observations_field_time_idx').on(table.estimator, table.field, table.observedAt)],
);
