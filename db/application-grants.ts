/**
 * Two roles on a PostgreSQL server (issue 12, finding 7). The migration role (MIGRATION_DATABASE_URL)
 * owns every table; the application role (DATABASE_URL) is granted what the app does and no more.
 * Owning approval_audit would let the application drop its trigger or rewrite it; granted only
 * INSERT and SELECT there, it can append to the log and read it, nothing else — whatever a bug or a
 * stolen connection string tries.
 *
 * Run after every migration, by the migration role: tables a migration added need their grants too.
 */
import { sql } from 'drizzle-orm';
import { ContextRuntimeError } from '../server/runtime/errors';
import type { Database } from './client';

/** Tables the application may only append to and read. */
export const APPEND_ONLY_TABLES = Object.freeze(['approval_audit'] as const);

/** The login role a postgres:// URL connects as. */
export function roleOfUrl(url: string): string {
  const role = URL.canParse(url) ? decodeURIComponent(new URL(url).username) : '';
  if (role === '') throw new ContextRuntimeError('INVALID_CONFIG', 'database: the connection URL names no user (role)', { field: 'DATABASE_URL' });
  return role;
}

const identifier = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** Revoking from the owner would take its own log away, and grant the application nothing it lacks. */
export function assertSeparateRoles(migrationRole: string, applicationRole: string): void {
  if (migrationRole !== applicationRole) return;
  throw new ContextRuntimeError('INVALID_CONFIG', `MIGRATION_DATABASE_URL connects as ${applicationRole}, the same role as DATABASE_URL: use a separate owner role, or leave MIGRATION_DATABASE_URL unset`, {
    field: 'MIGRATION_DATABASE_URL',
  });
}

export async function grantApplicationRole(owner: Database, applicationRole: string): Promise<void> {
  const [current] = await owner.query<{ role: string }>(sql`select current_user as role`);
  assertSeparateRoles(current?.role ?? '', applicationRole);
  const role = identifier(applicationRole);
  const statements = [
    `GRANT USAGE ON SCHEMA public TO ${role}`,
    `GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO ${role}`,
    `GRANT USAGE, SELECT, UPDATE ON ALL SEQUENCES IN SCHEMA public TO ${role}`,
    // TRUNCATE, REFERENCES and TRIGGER were never granted above; REVOKE ALL also takes back any
    // privilege an older, single-role set-up left behind.
    ...APPEND_ONLY_TABLES.flatMap((table) => [`REVOKE ALL ON ${table} FROM ${role}`, `GRANT SELECT, INSERT ON ${table} TO ${role}`]),
  ];
  await owner.exec(statements.join(';\n'));
}
