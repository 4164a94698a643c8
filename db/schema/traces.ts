import { doublePrecision, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** One span per planner decision or node execution; the learning loop reads these. */
export const spans = pgTable(
  'spans',
  {
    id: text('id').primaryKey(),
    runId: text('run_id').notNull(),
    parentId: text('parent_id'),
    name: text('name').notNull(),
    category: text('category').notNull(),
    startedAt: timestamp('started_at', { withTimezone: true, mode: 'date' }).notNull(),
    endedAt: timestamp('ended_at', { withTimezone: true, mode: 'date' }).notNull(),
    durationMs: doublePrecision('duration_ms').notNull(),
    tokens: integer('tokens').notNull().default(0),
    costUsd: doublePrecision('cost_usd').notNull().default(0),
    status: text('status').notNull(),
    attributes: jsonb('attributes').$type<Record<string, unknown>>().notNull().default({}),
  },
  (table) => [index('spans_run_id_idx').on(table.runId)],
);
