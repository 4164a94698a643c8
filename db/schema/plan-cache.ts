import { integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

/** Cached planning decisions (never answers), keyed exactly by the four key parts. */
export const planCache = pgTable(
  'plan_cache',
  {
    id: text('id').primaryKey(),
    intentKey: text('intent_key').notNull(),
    sourceFingerprint: text('source_fingerprint').notNull(),
    policyFingerprint: text('policy_fingerprint').notNull(),
    constraintEnvelope: text('constraint_envelope').notNull(),
    /** Names behind source_fingerprint, so one source's invalidation finds its entries. */
    sourceNames: text('source_names').array().notNull().default([]),
    planHash: text('plan_hash').notNull(),
    payload: jsonb('payload').notNull(),
    hits: integer('hits').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    lastHitAt: timestamp('last_hit_at', { withTimezone: true, mode: 'date' }),
  },
  (table) => [
    uniqueIndex('plan_cache_key_idx').on(table.intentKey, table.sourceFingerprint, table.policyFingerprint, table.constraintEnvelope),
  ],
);
