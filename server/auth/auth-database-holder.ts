/**
 * The database the runtime opened, shared with sign-in: embedded PGlite allows one opener per data
 * directory, so accounts live in the runtime's own database rather than a second connection.
 * Held on globalThis because each Next.js route bundle has its own module graph (as the runtime).
 */
import type { Database } from '../../db/client';

const HOLDER_KEY = Symbol.for('context-runtime.auth-database');

type Holder = { [HOLDER_KEY]?: Database };

/** Called by bootstrap.ts once the stores are open. */
export function registerAuthDatabase(database: Database): void {
  (globalThis as Holder)[HOLDER_KEY] = database;
}

export function registeredAuthDatabase(): Database | undefined {
  return (globalThis as Holder)[HOLDER_KEY];
}

/** Called when that database closes (or a failed open closes it): sign-in must never write to a closed or abandoned database. */
export function unregisterAuthDatabase(database: Database): void {
  const holder = globalThis as Holder;
  if (holder[HOLDER_KEY] === database) delete holder[HOLDER_KEY];
}
