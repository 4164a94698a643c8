import { index, integer, jsonb, pgTable, real, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

/**
 * Cached planning decisions (never answers). Every key part but the intent is matched exactly
 * through `exact_key` (a hash of them); the intent is matched by meaning over `intent_vector`
 * (also `intent_embedding vector`, added by migration 0009 only where pgvector is installed).
 */
export const planCache = pgTable(
  'plan_cache',
  {
    id: text('id').primaryKey(),
    exactKey: text('exact_key').notNull(),
    intentKey: text('intent_key').notNull(),
    intentShape: text('intent_shape').notNull(),
    sourceFingerprint: text('source_fingerprint').notNull(),
    policyFingerprint: text('policy_fingerprint').notNull(),
    permissionFingerprint: text('permission_fingerprint').notNull(),
    constraintEnvelope: text('constraint_envelope').notNull(),
    plannerVersion: text('planner_version').notNull(),
    capabilityFingerprint: text('capability_fingerprint').notNull(),
    embedderId: text('embedder_id').notNull(),
    intentVector: real('intent_vector').array().notNull(),
    /** Names behind source_fingerprint, so one source's invalidation finds its entries. */
    sourceNames: text('source_names').array().notNull().default([]),
    planHash: text('plan_hash').notNull(),
    payload: jsonb('payload').notNull(),
    hits: integer('hits').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }),
    lastHitAt: timestamp('last_hit_at', { withTimezone: true, mode: 'date' }),
  },
  (table) => [uniqueIndex('plan_cache_exact_intent_idx').on(table.exactKey, table.intentKey), index('plan_cache_embedder_idx').on(table.embedderId, table.createdAt)],
);

/** Plans retired by an invalidation, kept (without payload) only to explain near misses. */
export const planCacheRetired = pgTable(
  'plan_cache_retired',
  {
    id: text('id').notNull(),
    exactKey: text('exact_key').notNull(),
    embedderId: text('embedder_id').notNull(),
    intentKey: text('intent_key').notNull(),
    key: jsonb('key').notNull(),
    intentVector: real('intent_vector').array().notNull(),
    sourceNames: text('source_names').array().notNull().default([]),
    planHash: text('plan_hash').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
    retiredAt: timestamp('retired_at', { withTimezone: true, mode: 'date' }).notNull(),
    retiredReason: text('retired_reason').notNull(),
  },
  (table) => [index('plan_cache_retired_at_idx').on(table.embedderId, table.retiredAt)],
);

/** Lookup counters per minute, written in batches by the cache (server/runtime/plancache/plan-cache-counters.ts). */
export const planCacheStats = pgTable('plan_cache_stats', {
  bucketStart: timestamp('bucket_start', { withTimezone: true, mode: 'date' }).primaryKey(),
  lookups: integer('lookups').notNull().default(0),
  hits: integer('hits').notNull().default(0),
  nearMisses: integer('near_misses').notNull().default(0),
  misses: integer('misses').notNull().default(0),
  byReason: jsonb('by_reason').notNull().default({}),
});
