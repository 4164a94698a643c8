import { sql } from 'drizzle-orm';
import type { Database } from '../../../db/client';
import type { StoreCapabilities } from '../../runtime/contracts/store';

/** Extensions the runtime can use when present and must work without. */
export const OPTIONAL_EXTENSIONS = Object.freeze(['vector', 'pg_textsearch'] as const);
export type OptionalExtension = (typeof OPTIONAL_EXTENSIONS)[number];

export const BM25_INDEX_NAME = 'chunks_bm25_idx';

/** Asks the catalog, never the configuration: the same build runs on PGlite and on a bare PostgreSQL 15. */
export async function detectStoreCapabilities(database: Database): Promise<StoreCapabilities> {
  const rows = await database.query<{ extname: string }>(
    sql`select extname from pg_extension where extname in ('vector', 'pg_textsearch')`,
  );
  const installed = new Set(rows.map((row) => row.extname));
  const extensions: Record<string, boolean> = {};
  const missing: Record<string, string> = {};
  for (const name of OPTIONAL_EXTENSIONS) {
    extensions[name] = installed.has(name);
    if (!installed.has(name)) missing[name] = `extension ${name} is not installed on this server`;
  }
  return Object.freeze({
    backend: database.driver === 'pglite' ? 'embedded-pglite' : 'postgres-server',
    extensions: Object.freeze(extensions),
    missing: Object.freeze(missing),
  });
}

export async function indexExists(database: Database, indexName: string): Promise<boolean> {
  const [row] = await database.query<{ present: boolean }>(sql`select to_regclass(${indexName}) is not null as present`);
  return row?.present === true;
}
