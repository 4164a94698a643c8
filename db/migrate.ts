import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { PgliteDatabase } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import type { PostgresJsDatabase } from 'drizzle-orm/postgres-js';
import { migrate as migratePostgres } from 'drizzle-orm/postgres-js/migrator';
import type { Database } from './client';
import { readJournalEntries } from './migration-journal';
import { packageFolder } from '../server/config/package-files';

export interface MigrationReport {
  /** Tags of the migrations this call applied, oldest first (empty when already up to date). */
  readonly applied: readonly string[];
  /** Every migration the folder holds. */
  readonly total: number;
  readonly folder: string;
}

/**
 * Applies drizzle/ migrations with drizzle's own migrator (it records them in
 * drizzle.__drizzle_migrations and runs pending ones in one transaction).
 */
export async function migrateDatabase(database: Database, options: { readonly migrationsFolder?: string } = {}): Promise<MigrationReport> {
  const folder = options.migrationsFolder ?? defaultMigrationsFolder();
  const journal = readJournalEntries(folder);
  return database.withExclusiveLock('context-runtime:migrate', async () => {
    const before = await lastAppliedMillis(database);
    if (database.driver === 'pglite') {
      await migratePglite(database.db as unknown as PgliteDatabase<Record<string, unknown>>, { migrationsFolder: folder });
    } else {
      await migratePostgres(database.db as unknown as PostgresJsDatabase<Record<string, unknown>>, { migrationsFolder: folder });
    }
    const applied = journal.filter((entry) => before === undefined || entry.when > before).map((entry) => entry.tag);
    return Object.freeze({ applied: Object.freeze(applied), total: journal.length, folder });
  });
}

/**
 * drizzle/ of this package: beside db/ in a checkout, beside dist/ in the built package (installed
 * or not), the working directory's in a bundle that hides where this module is. The working
 * directory's drizzle/ is still the answer when none holds a journal, so the error names that path.
 */
export function defaultMigrationsFolder(): string {
  return packageFolder(import.meta.url, 'drizzle', path.join('drizzle', 'meta', '_journal.json')) ?? path.resolve(process.cwd(), 'drizzle');
}

async function lastAppliedMillis(database: Database): Promise<number | undefined> {
  const [table] = await database.query<{ present: boolean }>(sql`select to_regclass('drizzle.__drizzle_migrations') is not null as present`);
  if (!table?.present) return undefined;
  const [last] = await database.query<{ created_at: string | number | null }>(
    sql`select max(created_at) as created_at from drizzle.__drizzle_migrations`,
  );
  return last?.created_at === null || last?.created_at === undefined ? undefined : Number(last.created_at);
}
