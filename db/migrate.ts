import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import type { PgliteDatabase } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import type { PostgresJsDatabase } from 'drizzle-orm/postgres-js';
import { migrate as migratePostgres } from 'drizzle-orm/postgres-js/migrator';
import type { Database } from './client';
import { readJournalEntries } from './migration-journal';

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

/** drizzle/ beside db/ when run from source (tsx, vitest); the working directory otherwise (a bundle). */
export function defaultMigrationsFolder(): string {
  try {
    // A path computed from this file, not `new URL('../drizzle', import.meta.url)`: the bundler reads
    // that form as an asset import and warns "Module not found" (it is a folder, read at run time).
    const besideSource = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'drizzle');
    if (existsSync(path.join(besideSource, 'meta', '_journal.json'))) return besideSource;
  } catch {
    // import.meta.url is not a file: URL inside some bundles.
  }
  return path.resolve(process.cwd(), 'drizzle');
}

async function lastAppliedMillis(database: Database): Promise<number | undefined> {
  const [table] = await database.query<{ present: boolean }>(sql`select to_regclass('drizzle.__drizzle_migrations') is not null as present`);
  if (!table?.present) return undefined;
  const [last] = await database.query<{ created_at: string | number | null }>(
    sql`select max(created_at) as created_at from drizzle.__drizzle_migrations`,
  );
  return last?.created_at === null || last?.created_at === undefined ? undefined : Number(last.created_at);
}
