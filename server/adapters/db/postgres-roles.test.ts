/**
 * Two roles on a PostgreSQL server (issue 12, finding 7): the migration role owns the schema, the
 * application role may only append to and read approval_audit — it can neither rewrite a row nor
 * lift the trigger that forbids it. On the old single-role set-up the application owned the table
 * and `ALTER TABLE … DISABLE TRIGGER` succeeded.
 *
 * Runs only when both URLs are set; the database is WIPED. Set-up (also in .ci/run and the README):
 *
 *   su postgres -c "psql" <<'SQL'
 *   CREATE ROLE context_runtime LOGIN PASSWORD 'context_runtime';
 *   CREATE ROLE context_runtime_owner LOGIN PASSWORD 'context_runtime_owner';
 *   CREATE DATABASE context_runtime_roles OWNER context_runtime_owner;
 *   SQL
 *   TEST_ROLES_DATABASE_URL=postgres://context_runtime:context_runtime@127.0.0.1:5432/context_runtime_roles \
 *   TEST_ROLES_MIGRATION_URL=postgres://context_runtime_owner:context_runtime_owner@127.0.0.1:5432/context_runtime_roles \
 *     npx vitest run server/adapters/db/postgres-roles.test.ts
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../db/client';
import { openStores, type Stores } from './open-stores';

const url = process.env.TEST_ROLES_DATABASE_URL;
const migrationUrl = process.env.TEST_ROLES_MIGRATION_URL;
let stores: Stores;

/** The driver's message for a refused statement, or undefined when it succeeded. */
async function refusal(statement: string): Promise<string | undefined> {
  try {
    await stores.database.exec(statement);
    return undefined;
  } catch (error) {
    return String((error as { cause?: { message?: string } }).cause?.message ?? (error as Error).message);
  }
}

describe.skipIf(!url || !migrationUrl)('a PostgreSQL server with a separate migration role', () => {
  beforeAll(async () => {
    const wipe = await openDatabase({ url: migrationUrl });
    await wipe.exec('DROP SCHEMA IF EXISTS drizzle CASCADE; DROP SCHEMA IF EXISTS public CASCADE; CREATE SCHEMA public;');
    await wipe.close();
    stores = await openStores({ url, migrationUrl });
    await stores.runStore.createRun({ id: 'run-1', goal: 'Roll back checkout-api', planHash: 'h', plan: null, user: 'ana' });
    await stores.runStore.recordDecision('run-1', { nodeId: 'approve', decision: 'approved', by: 'lead', comment: 'ok', at: '2026-01-02T03:04:05.000Z', requiredRole: 'approver' });
  });

  afterAll(async () => {
    await stores?.close();
  });

  it('migrates as the owner: the application role owns no table', async () => {
    expect(stores.migrations.applied.length).toBe(stores.migrations.total);
    const owned = await stores.database.query<{ tablename: string }>(sql`select tablename from pg_tables where schemaname = 'public' and tableowner = current_user`);
    expect(owned).toEqual([]);
  });

  it('lets the application append to the audit log and read it, and nothing more', async () => {
    expect(await stores.runStore.listDecisions({ limit: 5 })).toMatchObject([{ runId: 'run-1', goal: 'Roll back checkout-api', by: 'lead' }]);
    expect(await refusal(`UPDATE approval_audit SET decision = 'rejected'`)).toMatch(/permission denied/);
    expect(await refusal(`DELETE FROM approval_audit`)).toMatch(/permission denied/);
    expect(await refusal(`TRUNCATE approval_audit`)).toMatch(/permission denied/);
    expect(await refusal(`ALTER TABLE approval_audit DISABLE TRIGGER approval_audit_no_rewrite`)).toMatch(/must be owner/);
    expect(await refusal(`DROP TABLE approval_audit CASCADE`)).toMatch(/must be owner/);
    expect(await stores.runStore.verifyDecisions()).toMatchObject({ rows: 1, intact: true });
  });

  it('keeps the rest of the application working through the granted privileges', async () => {
    await stores.runStore.setStatus('run-1', 'completed', { result: { answer: 'done' }, pendingNodeId: null });
    expect(await stores.runStore.loadRun('run-1')).toMatchObject({ status: 'completed' });
  });

  it('refuses a migration URL naming the application role itself', async () => {
    await expect(openStores({ url, migrationUrl: url })).rejects.toMatchObject({ code: 'INVALID_CONFIG', field: 'MIGRATION_DATABASE_URL' });
  });
});
