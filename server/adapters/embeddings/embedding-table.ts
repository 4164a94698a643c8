import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Database } from '../../../db/client';

/** pgvector's HNSW limit for `vector` columns; larger embeddings are searched exactly (sequential scan). */
export const HNSW_MAX_DIMENSIONS = 2000;

export async function embeddingTableExists(database: Database): Promise<boolean> {
  const [row] = await database.query<{ present: boolean }>(sql`select to_regclass('chunk_embeddings') is not null as present`);
  return row?.present === true;
}

/** A SQL string literal; embedder ids come from configuration, never from a request. */
export const quoteLiteral = (text: string): string => `'${text.replaceAll("'", "''")}'`;

/** `chunk_embeddings_<id>_hnsw_idx`, hashed when the id would push it past PostgreSQL's 63-byte names. */
export function hnswIndexName(embedderId: string): string {
  const slug = embedderId.toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_|_$/g, '');
  const name = `chunk_embeddings_${slug}_hnsw_idx`;
  if (name.length <= 63) return name;
  return `chunk_embeddings_${slug.slice(0, 24)}_${createHash('sha256').update(embedderId).digest('hex').slice(0, 12)}_hnsw_idx`;
}

/**
 * The embedder's partial HNSW index on `embedding::vector(N)` (see db/schema/embeddings.ts),
 * created once its dimension is known. Returns false when it cannot exist (too many dimensions,
 * or the server refused): retrieval then scans, which is exact, only slower.
 */
export async function ensureHnswIndex(database: Database, embedderId: string, dimensions: number): Promise<boolean> {
  if (!Number.isInteger(dimensions) || dimensions < 1 || dimensions > HNSW_MAX_DIMENSIONS) return false;
  const name = hnswIndexName(embedderId);
  try {
    await database.exec(
      `CREATE INDEX IF NOT EXISTS ${name} ON chunk_embeddings USING hnsw ((embedding::vector(${dimensions})) vector_cosine_ops) WHERE embedder_id = ${quoteLiteral(embedderId)}`,
    );
    return true;
  } catch {
    return false;
  }
}

export async function dropHnswIndex(database: Database, embedderId: string): Promise<void> {
  await database.exec(`DROP INDEX IF EXISTS ${hnswIndexName(embedderId)}`);
}

/** pgvector's text input: '[v1,v2,…]'. Float32 printed in full, so the stored value is exact. */
export const toVectorLiteral = (vector: Float32Array): string => `[${Array.from(vector).join(',')}]`;

export const isZeroVector = (vector: Float32Array): boolean => vector.every((value) => value === 0);
