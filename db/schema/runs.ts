import { bigserial, doublePrecision, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

/** Durable run state: enough to resume a paused run after a restart. */
export const runs = pgTable(
  'runs',
  {
    id: text('id').primaryKey(),
    goal: text('goal').notNull(),
    status: text('status').notNull(),
    planHash: text('plan_hash').notNull(),
    plan: jsonb('plan').notNull(),
    result: jsonb('result'),
    error: text('error'),
    userName: text('user_name').notNull(),
    pendingNodeId: text('pending_node_id'),
    costUsd: doublePrecision('cost_usd').notNull().default(0),
    latencySeconds: doublePrecision('latency_seconds').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (table) => [index('runs_created_at_idx').on(table.createdAt), index('runs_status_idx').on(table.status)],
);

export const runNodes = pgTable(
  'run_nodes',
  {
    runId: text('run_id')
      .notNull()
      .references(() => runs.id, { onDelete: 'cascade' }),
    nodeId: text('node_id').notNull(),
    /** 'done' | 'skipped'. */
    status: text('status').notNull(),
    outcome: jsonb('outcome'),
    attempts: integer('attempts').notNull().default(0),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.runId, table.nodeId] })],
);

/**
 * Who approved or rejected what, and when. Append-only, enforced by a trigger in a custom
 * migration (UPDATE and DELETE raise), so the application cannot rewrite history either.
 */
export const approvalAudit = pgTable(
  'approval_audit',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    runId: text('run_id')
      .notNull()
      .references(() => runs.id),
    nodeId: text('node_id').notNull(),
    decision: text('decision').notNull(),
    decidedBy: text('decided_by').notNull(),
    comment: text('comment').notNull().default(''),
    decidedAt: timestamp('decided_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (table) => [uniqueIndex('approval_audit_run_node_idx').on(table.runId, table.nodeId)],
);
