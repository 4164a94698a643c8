import { doublePrecision, index, integer, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Model responses kept by the model-context cache (server/runtime/modelcache), by a hash of
 * (model, prompt, parameters, cited source versions). `source_names` lets a changed source drop its
 * entries with one indexed delete; `source_versions` is what a hit is checked against.
 */
export const modelCache = pgTable(
  'model_cache',
  {
    key: text('key').primaryKey(),
    modelId: text('model_id').notNull(),
    tier: text('tier').notNull(),
    sourceNames: text('source_names').array().notNull().default([]),
    sourceVersions: jsonb('source_versions').notNull(),
    chunkIds: text('chunk_ids').array().notNull().default([]),
    responseText: text('response_text').notNull(),
    inputTokens: integer('input_tokens').notNull(),
    outputTokens: integer('output_tokens').notNull(),
    costUsd: doublePrecision('cost_usd').notNull(),
    latencyMs: integer('latency_ms').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (table) => [index('model_cache_source_names_idx').using('gin', table.sourceNames), index('model_cache_expires_idx').on(table.expiresAt)],
);

/** Lookups and hits per (model, intent class): the measured hit rate PlanScore's cache term reads. */
export const modelCacheStats = pgTable(
  'model_cache_stats',
  {
    modelId: text('model_id').notNull(),
    intentClass: text('intent_class').notNull(),
    lookups: integer('lookups').notNull().default(0),
    hits: integer('hits').notNull().default(0),
  },
  (table) => [primaryKey({ columns: [table.modelId, table.intentClass] })],
);
