-- Custom SQL migration file, put your code below! --
-- HNSW (Malkov & Yashunin, 2018) over the offline default embedder's vectors, cosine distance
-- (`<=>`, what the dense retriever orders by). The column has no fixed dimension (embedders
-- differ), so the index is on the cast expression and partial on the embedder id: pgvector's
-- pattern for mixed dimensions; the query must repeat both to use it (dense-retriever.ts).
-- Other embedders get the same index at run time once their dimension is known
-- (embedding-table.ts). Only where pgvector and the table exist; a refusal is a WARNING.
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
