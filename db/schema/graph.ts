import { index, integer, pgTable, primaryKey, real, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Indexes derived from chunks at ingest: identifiers for exact lookup and the entity–passage
 * graph for HippoRAG-style retrieval (Gutiérrez et al., NeurIPS 2024). Like `chunks`, no foreign
 * keys: rows are written in bulk per source version by server/adapters/graph, and chunks are
 * never deleted, only superseded, so rows of an old version stay valid for provenance.
 */

/**
 * One row per (identifier, chunk). Values are lower-cased; the text_pattern_ops btree serves both
 * equality and prefix lookups (an abbreviated commit SHA "1a2b3c4" against a stored 40-hex one).
 */
export const identifiers = pgTable(
  'identifiers',
  {
    value: text('value').notNull(),
    kind: text('kind').notNull(),
    chunkId: text('chunk_id').notNull(),
    versionId: text('version_id').notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.chunkId, table.value] }),
    index('identifiers_value_idx').on(table.value.op('text_pattern_ops')),
    index('identifiers_version_idx').on(table.versionId),
  ],
);

/**
 * A graph node for a named thing: id = hash of its normalised name (entity-normalizer.ts), so the
 * name needs no unique index of its own; measured on MuSiQue's 12k entities, the second btree
 * doubled the insert time (0.23 → 0.5 s on a loaded 2-core machine).
 */
export const graphEntities = pgTable('graph_entities', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
});

/** Passage–entity edges: weight = occurrences in the passage; role says how it was found (title, span, quoted, identifier). */
export const graphPassageEntities = pgTable(
  'graph_passage_entities',
  {
    chunkId: text('chunk_id').notNull(),
    entityId: text('entity_id').notNull(),
    versionId: text('version_id').notNull(),
    role: text('role').notNull(),
    weight: real('weight').notNull(),
  },
  (table) => [primaryKey({ columns: [table.chunkId, table.entityId] }), index('graph_passage_entities_version_idx').on(table.versionId)],
);

/**
 * Which derived index (`graph`, `identifiers`) has been built for which source version. The
 * graph retriever keys its in-memory graph on the built current versions, so a new version
 * (or a rebuilt one) invalidates the cache without any listener.
 */
export const derivedIndexBuilds = pgTable(
  'derived_index_builds',
  {
    versionId: text('version_id').notNull(),
    indexName: text('index_name').notNull(),
    items: integer('items').notNull(),
    builtAt: timestamp('built_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.versionId, table.indexName] })],
);
