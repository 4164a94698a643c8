import { bigserial, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Model calls admitted under a tier's limits (max_concurrency, rpm, tpm) by any process sharing a
 * PostgreSQL server: workers on several machines send to one provider key, which counts them all.
 * A row is in flight until `settled_at`, or until `lease_until` when its process died mid-call; it
 * counts against the minute's requests and tokens for a minute from `admitted_at`.
 */
export const tierAdmissions = pgTable(
  'tier_admissions',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    limiterKey: text('limiter_key').notNull(),
    tokens: integer('tokens').notNull(),
    admittedAt: timestamp('admitted_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    leaseUntil: timestamp('lease_until', { withTimezone: true, mode: 'date' }).notNull(),
    settledAt: timestamp('settled_at', { withTimezone: true, mode: 'date' }),
  },
  (table) => [index('tier_admissions_key_idx').on(table.limiterKey, table.admittedAt)],
);
