import { defineConfig } from 'drizzle-kit';

/**
 * `npm run db:generate` diffs db/schema against drizzle/meta and writes SQL to drizzle/ (through
 * scripts/db-generate.ts, which keeps the journal's stamps in order). Hand-written SQL (the audit
 * trigger, GIN indexes) lives in custom migrations made with `npm run db:generate -- --custom
 * --name=<what>`; what depends on pgvector or pg_textsearch goes in the capability migration
 * (drizzle/0015_optional_capabilities.sql, re-run at every start). db/migrations-in-sync.test.ts
 * fails when the schema and the migrations disagree.
 */
export default defineConfig({
  dialect: 'postgresql',
  schema: './db/schema/index.ts',
  out: './drizzle',
});
