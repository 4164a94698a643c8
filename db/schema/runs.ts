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
    /** The plan's shared part (candidates, rejected, graph…), kept once in run_plan_bodies; null = all in `plan`. */
    planBodyHash: text('plan_body_hash').references(() => runPlanBodies.hash),
    result: jsonb('result'),
    error: text('error'),
    userName: text('user_name').notNull(),
    pendingNodeId: text('pending_node_id'),
    /** The process executing the run (instance id); null once it settles. A start finds orphans by it. */
    owner: text('owner'),
    /** Refreshed while the run executes; a stale heartbeat means its owner is gone. */
    heartbeatAt: timestamp('heartbeat_at', { withTimezone: true, mode: 'date' }),
    costUsd: doublePrecision('cost_usd').notNull().default(0),
    latencySeconds: doublePrecision('latency_seconds').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (table) => [index('runs_created_at_idx').on(table.createdAt), index('runs_status_idx').on(table.status), index('runs_plan_body_hash_idx').on(table.planBodyHash)],
);

/**
 * The part of a stored EXPLAIN that runs served from one plan-cache entry share byte for byte
 * (candidates, rejected candidates, the graph, capabilities, learning arms: ~58 KB of the demo's
 * 65 KB), once per content hash instead of with every run (adapters/db/run-plan-body.ts).
 */
export const runPlanBodies = pgTable('run_plan_bodies', {
  hash: text('hash').primaryKey(),
  body: jsonb('body').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

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
 * migration (UPDATE and DELETE raise) and, on a server, by privileges: the application role may
 * only INSERT and SELECT (db/application-grants.ts). Each row copies the goal it decided (the
 * `runs` row stays mutable) and is hash-chained to the row before it (approval-audit-chain.ts), so
 * a rewrite by the table's owner shows up in `context-runtime audit verify`.
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
    /** The goal as it was when decided, copied from the run. */
    goal: text('goal').notNull().default(''),
    /** Who started the run (the decider may not be them) and the role the gate required. */
    runUser: text('run_user').notNull().default(''),
    requiredRole: text('required_role').notNull().default(''),
    /** row_hash of the previous row ('' for the first); row_hash = sha256 over prev_hash and this row's fields. */
    prevHash: text('prev_hash').notNull().default(''),
    rowHash: text('row_hash').notNull().default(''),
  },
  (table) => [uniqueIndex('approval_audit_run_node_idx').on(table.runId, table.nodeId)],
);
