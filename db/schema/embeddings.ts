import { sql } from 'drizzle-orm';
import { check, customType, integer, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

/** pgvector's `vector` without a fixed dimension: one column serves embedders of any size (see below). */
const vector = customType<{ data: string; driverData: string }>({ dataType: () => 'vector' });

/**
 * One vector per (chunk, embedder): switching the embedder stores a second set beside the first
 * instead of mixing two vector spaces in one ranking. Needs the `vector` extension, so migration
 * 0004 creates this table only where it is installed (a plain PostgreSQL keeps the rest of the
 * schema, and the dense retriever reports itself unavailable). Like `chunks`, no foreign key:
 * rows are written in bulk by embed-pending.ts and chunks are never deleted, only superseded.
 *
 * The column has no dimension because embedders differ (SIF 100, OpenAI 1536, …); HNSW needs one,
 * so each embedder gets a partial expression index `((embedding::vector(N)) vector_cosine_ops)
 * WHERE embedder_id = '…'`, pgvector's documented pattern for mixed dimensions (0005 for the
 * offline default, embedding-table.ts for others at run time).
 */
export const chunkEmbeddings = pgTable(
  'chunk_embeddings',
  {
    chunkId: text('chunk_id').notNull(),
    embedderId: text('embedder_id').notNull(),
    dims: integer('dims').notNull(),
    embedding: vector('embedding').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ columns: [table.chunkId, table.embedderId] }),
    check('chunk_embeddings_dims_check', sql`vector_dims(${table.embedding}) = ${table.dims}`),
  ],
);

/**
 * Corpus statistics an embedder's vectors depend on (SIF: word counts and the removed common
 * component), persisted so queries after a restart land in the same space as the stored vectors.
 */
export const embedderStates = pgTable('embedder_states', {
  embedderId: text('embedder_id').primaryKey(),
  state: jsonb('state').$type<Record<string, unknown>>().notNull(),
  fittedAt: timestamp('fitted_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});
