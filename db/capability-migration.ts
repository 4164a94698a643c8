import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Database } from './client';
import { defaultMigrationsFolder } from './migrate';

/**
 * The migration that holds the extension-dependent schema (pgvector's table and index, the bm25
 * index, the extensions themselves). Every statement in it is idempotent.
 */
export const CAPABILITY_MIGRATION_TAG = '0015_optional_capabilities';

/**
 * Columns the capability migration adds that db/schema leaves out on purpose: they exist only with
 * pgvector, and the adapter reaches them with raw SQL after checking (pg-plan-cache-store.ts).
 */
export const EXTENSION_ONLY_COLUMNS = Object.freeze(['plan_cache.intent_embedding', 'plan_cache_retired.intent_embedding'] as const);

/**
 * Re-runs the capability migration at start-up. The migrator runs each migration once, but an
 * operator may install pgvector or pg_textsearch on the server later; re-running the same file
 * (rather than a copy of its DDL in code) lets the objects follow, and keeps their DDL in one place.
 */
export async function reapplyCapabilityMigration(database: Database, migrationsFolder: string = defaultMigrationsFolder()): Promise<void> {
  const text = readFileSync(path.join(migrationsFolder, `${CAPABILITY_MIGRATION_TAG}.sql`), 'utf8');
  for (const statement of text.split('--> statement-breakpoint')) {
    if (statement.trim() !== '') await database.exec(statement);
  }
}
