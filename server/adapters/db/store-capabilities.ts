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

/**
 * Re-runs the optional parts of migrations 0001/0002 at start-up. Migrations run once; an
 * operator may install pg_textsearch or pgvector on the server later, and the bm25 index should
 * follow without a hand-written migration. Both statements are idempotent and swallow refusals.
 */
export async function ensureOptionalSearchSupport(database: Database): Promise<void> {
  await database.exec(`
DO $$
DECLARE wanted text;
BEGIN
  FOREACH wanted IN ARRAY ARRAY['vector', 'pg_textsearch'] LOOP
    IF EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = wanted)
       AND NOT EXISTS (SELECT 1 FROM pg_extension WHERE extname = wanted) THEN
      BEGIN
        EXECUTE format('CREATE EXTENSION IF NOT EXISTS %I', wanted);
      EXCEPTION WHEN OTHERS THEN
        RAISE WARNING 'extension % is available but could not be created: %', wanted, SQLERRM;
      END;
    END IF;
  END LOOP;
  IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_textsearch') AND to_regclass('${BM25_INDEX_NAME}') IS NULL THEN
    BEGIN
      EXECUTE 'CREATE INDEX IF NOT EXISTS ${BM25_INDEX_NAME} ON chunks USING bm25 (search_text) WITH (text_config=''english'') WHERE is_current';
    EXCEPTION WHEN OTHERS THEN
      RAISE WARNING 'bm25 index ${BM25_INDEX_NAME} could not be created: %', SQLERRM;
    END;
  END IF;
END
$$;`);
}
