import { index, pgTable, primaryKey, real, text } from 'drizzle-orm/pg-core';

/**
 * Entity–entity edges from LLM OpenIE triples (HippoRAG's relation edges), one row per
 * (passage, subject, object): the passage the triple was read from is kept, so a walk never
 * crosses a relation that only a passage the caller may not read asserts. Written per source
 * version by server/adapters/graph/openie-indexer.ts; no foreign keys, as with the other graph tables.
 */
export const graphEntityRelations = pgTable(
  'graph_entity_relations',
  {
    chunkId: text('chunk_id').notNull(),
    subjectId: text('subject_id').notNull(),
    objectId: text('object_id').notNull(),
    versionId: text('version_id').notNull(),
    /** The first relation phrase read for the pair ("founded", "located in"); for display, PPR reads only the weight. */
    relation: text('relation').notNull(),
    /** Triples of the passage joining the pair. */
    weight: real('weight').notNull(),
  },
  (table) => [primaryKey({ columns: [table.chunkId, table.subjectId, table.objectId] }), index('graph_entity_relations_version_idx').on(table.versionId)],
);
