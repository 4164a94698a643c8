import { boolean, doublePrecision, integer, jsonb, pgTable, primaryKey, smallint, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * The online learning loop's state (server/runtime/learning): one row per bandit arm holding its
 * sufficient statistics, one row per run the bandit decided, one row per person's thumbs vote.
 * Vectors and matrices are JSON arrays: d ≈ 12, so a row is ~2 KB and one read at start-up.
 */
export const banditArms = pgTable(
  'bandit_arms',
  {
    /** Policy + feature-set version: state learned over another feature layout is never reloaded into this one. */
    policy: text('policy').notNull(),
    arm: text('arm').notNull(),
    dimension: integer('dimension').notNull(),
    /** A⁻¹ row-major (d×d). */
    inverse: jsonb('inverse').$type<number[]>().notNull(),
    b: jsonb('b').$type<number[]>().notNull(),
    contextSum: jsonb('context_sum').$type<number[]>().notNull(),
    pulls: integer('pulls').notNull().default(0),
    rewardSum: doublePrecision('reward_sum').notNull().default(0),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.policy, table.arm] })],
);

export const banditDecisions = pgTable('bandit_decisions', {
  runId: text('run_id').primaryKey(),
  policy: text('policy').notNull(),
  arm: text('arm').notNull(),
  context: jsonb('context').$type<number[]>().notNull(),
  explored: boolean('explored').notNull(),
  /** Judged quality in [0,1] before any thumbs vote (citation coverage, answer-in-context). */
  judgedQuality: doublePrecision('judged_quality').notNull(),
  penalty: doublePrecision('penalty').notNull(),
  /** The reward the arm's statistics currently hold for this run. */
  reward: doublePrecision('reward').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

export const runFeedback = pgTable(
  'run_feedback',
  {
    runId: text('run_id').notNull(),
    userName: text('user_name').notNull(),
    /** +1 thumbs up, −1 thumbs down. */
    thumb: smallint('thumb').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.runId, table.userName] })],
);
