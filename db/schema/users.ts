import { boolean, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

/**
 * People who may sign in. Emails are stored lower-cased so the unique index is case-insensitive.
 * password_hash is null for OIDC-only users; roles are ranked names (server/api/init.ts ROLES).
 */
export const users = pgTable(
  'users',
  {
    id: text('id').primaryKey(),
    email: text('email').notNull(),
    name: text('name').notNull().default(''),
    /** "scrypt$N$r$p$salt$hash" (base64url parts): the parameters travel with the hash. */
    passwordHash: text('password_hash'),
    roles: text('roles').array().notNull().default(['viewer']),
    disabled: boolean('disabled').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    /**
     * The OIDC identity this account signs in as: issuer + subject, which the identity provider
     * never reassigns, unlike an email (server/auth/oidc-admission.ts). Null for password-only accounts.
     */
    oidcIssuer: text('oidc_issuer'),
    oidcSubject: text('oidc_subject'),
  },
  (table) => [uniqueIndex('users_email_idx').on(table.email), uniqueIndex('users_oidc_identity_idx').on(table.oidcIssuer, table.oidcSubject)],
);

/** One-time links that create the first admin: only the SHA-256 of the token is kept. */
export const setupTokens = pgTable('setup_tokens', {
  tokenHash: text('token_hash').primaryKey(),
  expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
  usedAt: timestamp('used_at', { withTimezone: true, mode: 'date' }),
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});
