import { sql } from 'drizzle-orm';
import { type AnyPgColumn, boolean, customType, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });

/**
 * The Knowledge Layer's physical tables. Versions are append-only in spirit: a re-ingest
 * supersedes the old version (superseded_at) and flips chunks.is_current, but keeps the rows,
 * so provenance ("which version did run X cite?") survives a refresh.
 */
export const sources = pgTable('sources', {
  id: text('id').primaryKey(),
  name: text('name').notNull().unique(),
  kind: text('kind').notNull(),
  sensitive: boolean('sensitive').notNull().default(false),
  currentVersionId: text('current_version_id').references((): AnyPgColumn => sourceVersions.id),
  stale: boolean('stale').notNull().default(false),
  staleReason: text('stale_reason'),
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

export const sourceVersions = pgTable(
  'source_versions',
  {
    id: text('id').primaryKey(),
    sourceId: text('source_id')
      .notNull()
      .references(() => sources.id),
    versionNo: integer('version_no').notNull(),
    contentHash: text('content_hash').notNull(),
    chunkCount: integer('chunk_count').notNull(),
    tokenCount: integer('token_count').notNull(),
    recordedAt: timestamp('recorded_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    supersededAt: timestamp('superseded_at', { withTimezone: true, mode: 'date' }),
  },
  (table) => [uniqueIndex('source_versions_source_no_idx').on(table.sourceId, table.versionNo)],
);

/**
 * search_text = title + "\n" + body is what both text indexes cover (the bm25 and the GIN
 * indexes are created in custom migrations: drizzle-kit cannot express `USING bm25`).
 * No foreign keys here on purpose: chunks are written only by PgStore.ingest, inside the same
 * transaction as their version row, and the two per-row RI checks halved ingest throughput
 * (measured on PGlite 0.5.14, 5,000 chunks of ~950 chars: 790 → 1,669 chunks/s with both text
 * indexes present).
 */
export const chunks = pgTable(
  'chunks',
  {
    id: text('id').primaryKey(),
    sourceId: text('source_id').notNull(),
    versionId: text('version_id').notNull(),
    isCurrent: boolean('is_current').notNull().default(true),
    uri: text('uri').notNull(),
    ordinal: integer('ordinal').notNull(),
    title: text('title').notNull(),
    body: text('body').notNull(),
    searchText: text('search_text').notNull(),
    /**
     * to_tsvector('english', search_text), stored for the full-text fallback (GIN index in a custom
     * migration) and the reranker's features. Against a GIN expression index ranking reads the stored
     * vector instead of re-parsing every match: measured on PGlite 0.5.14 over 5,000 chunks,
     * ts_rank_cd top-20 for a query matching ~1,000 chunks took 171 ms → 20 ms. Filled at insert
     * where pg_textsearch is missing, else after ingest by search-vector-backfill.ts (drizzle/0014).
     */
    searchVector: tsvector('search_vector'),
    locator: text('locator'),
    tokens: integer('tokens').notNull(),
    metadata: jsonb('metadata').$type<Record<string, unknown>>().notNull().default({}),
    /**
     * Personal data or secrets found at ingest (server/runtime/policy/sensitive-content-detector.ts):
     * such a passage never reaches a non-local model or embedder unredacted (issue 12, finding 5).
     * Null until scanned: rows written before the column existed are marked at the next start
     * (adapters/db/sensitive-marking-backfill.ts) and count as sensitive until then.
     */
    sensitive: boolean('sensitive'),
    /** The kinds found ("email", "api_key"…), never the text itself; null until scanned. */
    sensitiveKinds: text('sensitive_kinds').array(),
    /**
     * Kept out of every search but a lookup's: the file diffs a commit's chunk had to cut (an
     * initial import's sixteen files). Searched with the rest they crowded out the commits that
     * answer most questions (bench/answers/RESULTS.md, sessions 53 and 57); a goal asking for a
     * configured value searches them on their own (execution/setting-lookup.ts).
     */
    lookupOnly: boolean('lookup_only').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (table) => [
    // Retrieval and the is_current flip only ever touch current chunks; a partial index keeps
    // them cheap however many superseded versions pile up.
    index('chunks_current_source_idx').on(table.sourceId).where(sql`is_current`),
    index('chunks_version_idx').on(table.versionId),
    // Counting a source's sensitive passages (every plan's policy check) reads only the marked rows.
    index('chunks_current_sensitive_idx').on(table.sourceId).where(sql`is_current and sensitive`),
  ],
);
