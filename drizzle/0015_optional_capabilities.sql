-- Custom SQL migration file, put your code below! --
-- The extension-dependent part of the schema in one place: pgvector and pg_textsearch are
-- capabilities, never requirements (0001, 0002, 0004 and 0005 first created these objects only where
-- the server offered the extension). Every statement is idempotent, because this one migration is
-- also re-run at each start (db/capability-migration.ts): an operator may install an extension on
-- the server after it was migrated, and the bm25 index, the embeddings table and its HNSW index
-- then follow without a hand-written migration. A refusal is a WARNING; store-capabilities.ts then
-- reports the capability as missing.
DO $$
DECLARE
  wanted text;
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
END
$$;
--> statement-breakpoint
-- BM25 over the current versions (see 0002 for why partial on is_current); EXECUTE because
-- `USING bm25` does not parse without the extension.
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_textsearch') AND to_regclass('chunks_bm25_idx') IS NULL THEN
    BEGIN
      EXECUTE 'CREATE INDEX IF NOT EXISTS chunks_bm25_idx ON chunks USING bm25 (search_text) WITH (text_config=''english'') WHERE is_current';
    EXCEPTION WHEN OTHERS THEN
      RAISE WARNING 'bm25 index chunks_bm25_idx could not be created: %', SQLERRM;
    END;
  END IF;
END
$$;
--> statement-breakpoint
-- db/schema/embeddings.ts: one vector per (chunk, embedder), no fixed dimension; `vector` does not
-- parse without pgvector, hence EXECUTE.
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'vector') AND to_regclass('chunk_embeddings') IS NULL THEN
    EXECUTE $ddl$
      CREATE TABLE IF NOT EXISTS "chunk_embeddings" (
        "chunk_id" text NOT NULL,
        "embedder_id" text NOT NULL,
        "dims" integer NOT NULL,
        "embedding" vector NOT NULL,
        "created_at" timestamp with time zone DEFAULT now() NOT NULL,
        CONSTRAINT "chunk_embeddings_chunk_id_embedder_id_pk" PRIMARY KEY("chunk_id","embedder_id"),
        CONSTRAINT "chunk_embeddings_dims_check" CHECK (vector_dims("chunk_embeddings"."embedding") = "chunk_embeddings"."dims")
      )$ddl$;
  END IF;
END
$$;
--> statement-breakpoint
-- HNSW for the offline default embedder (see 0005); other embedders get theirs at run time once
-- their dimension is known (server/adapters/embeddings/embedding-table.ts ensureHnswIndex).
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'vector') AND to_regclass('chunk_embeddings') IS NOT NULL THEN
    BEGIN
      EXECUTE 'CREATE INDEX IF NOT EXISTS chunk_embeddings_sif_sg_100d_hnsw_idx ON chunk_embeddings USING hnsw ((embedding::vector(100)) vector_cosine_ops) WHERE embedder_id = ''sif-sg-100d''';
    EXCEPTION WHEN OTHERS THEN
      RAISE WARNING 'hnsw index chunk_embeddings_sif_sg_100d_hnsw_idx could not be created: %', SQLERRM;
    END;
  END IF;
END
$$;
--> statement-breakpoint
-- The plan cache's intent vectors (see 0009); outside db/schema because the column does not exist
-- without pgvector, where pg-plan-cache-store.ts ranks in process instead.
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'vector') THEN
    EXECUTE 'ALTER TABLE "plan_cache" ADD COLUMN IF NOT EXISTS "intent_embedding" vector';
    EXECUTE 'ALTER TABLE "plan_cache_retired" ADD COLUMN IF NOT EXISTS "intent_embedding" vector';
  END IF;
END
$$;
