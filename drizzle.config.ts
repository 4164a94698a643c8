import { defineConfig } from 'drizzle-kit';

/**
 * `npm run db:generate` diffs db/schema against drizzle/meta and writes SQL to drizzle/.
 * Hand-written SQL (extensions, bm25 and GIN indexes, the audit trigger) lives in custom
 * migrations made with `npx drizzle-kit generate --custom --name=<what>`.
 */
export default defineConfig({
  dialect: 'postgresql',
  schema: './db/schema/index.ts',
  out: './drizzle',
});
