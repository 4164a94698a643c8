import { index, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

/**
 * API keys for the HTTP API, the CLI and MCP over HTTP (server/auth/api-key-store.ts). Only the
 * SHA-256 of a key is kept, so reading the database yields no usable key; `prefix` (the key's
 * first characters, also in the key itself) is what the admin page shows to tell keys apart.
 * A key acts with one role and, when `sources` is set, may read only those sources.
 */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    prefix: text('prefix').notNull(),
    secretHash: text('secret_hash').notNull(),
    role: text('role').notNull(),
    /** Null: every source the role may read. */
    sources: text('sources').array(),
    createdBy: text('created_by').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true, mode: 'date' }),
    revokedAt: timestamp('revoked_at', { withTimezone: true, mode: 'date' }),
  },
  (table) => [uniqueIndex('api_keys_secret_hash_idx').on(table.secretHash), index('api_keys_created_at_idx').on(table.createdAt)],
);
