/**
 * `npm run db:migrate`: brings the database named by DATABASE_URL (else the embedded PGlite
 * directory ./.data/pglite, or CONTEXT_RUNTIME_DATA_DIR) up to date and says what it can do.
 * With MIGRATION_DATABASE_URL it migrates as that (owner) role and then grants DATABASE_URL's role
 * only what the application needs (db/application-grants.ts).
 */
import { APPEND_ONLY_TABLES, grantApplicationRole, roleOfUrl } from '../db/application-grants';
import { openDatabase } from '../db/client';
import { serverEnv } from '../server/config/env';
import { migrateDatabase } from '../db/migrate';
import { reapplyCapabilityMigration } from '../db/capability-migration';
import { detectStoreCapabilities } from '../server/adapters/db/store-capabilities';
import { isContextRuntimeError } from '../server/runtime/errors';
import { acquireDataDirLock, type DataDirLock } from '../server/services/data-dir-lock';

async function main(): Promise<void> {
  const env = serverEnv();
  const url = env.migrationDatabaseUrl ?? env.databaseUrl;
  const dataDir = env.dataDir ?? './.data/pglite';
  // A running server owns the embedded directory; migrating under it would corrupt PGlite.
  const lock: DataDirLock | undefined = url ? undefined : acquireDataDirLock(dataDir);
  try {
    const database = await openDatabase(url ? { url } : { dataDir });
    try {
      console.log(`database: ${database.driver} ${database.location}`);
      const report = await migrateDatabase(database);
      await reapplyCapabilityMigration(database, report.folder);
      if (env.migrationDatabaseUrl && env.databaseUrl) {
        await grantApplicationRole(database, roleOfUrl(env.databaseUrl));
        console.log(`granted ${roleOfUrl(env.databaseUrl)}: read/write on the tables, INSERT and SELECT only on ${APPEND_ONLY_TABLES.join(', ')}`);
      }
      if (report.applied.length === 0) console.log(`migrations: up to date (${report.total} in ${report.folder})`);
      else for (const tag of report.applied) console.log(`applied: ${tag}`);
      const capabilities = await detectStoreCapabilities(database);
      console.log(`backend: ${capabilities.backend}`);
      for (const [name, installed] of Object.entries(capabilities.extensions)) {
        console.log(`extension ${name}: ${installed ? 'installed' : `missing (${capabilities.missing[name]})`}`);
      }
    } finally {
      await database.close();
    }
  } finally {
    lock?.release();
  }
}

main().catch((error: unknown) => {
  console.error(isContextRuntimeError(error) ? `${error.code}: ${error.message}` : error);
  process.exitCode = 1;
});
