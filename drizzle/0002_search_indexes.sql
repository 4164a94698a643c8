-- Custom SQL migration file, put your code below! --
-- Full-text fallback: always present, needs nothing beyond core PostgreSQL. GIN over the stored
-- search_vector = to_tsvector('english', search_text) (see db/schema/sources.ts for why stored).
-- Partial on is_current because retrieval never reads superseded versions.
CREATE INDEX IF NOT EXISTS chunks_search_vector_idx ON chunks USING gin (search_vector) WHERE is_current;
--> statement-breakpoint
-- BM25 only where pg_textsearch is installed; EXECUTE because `USING bm25` does not even parse
-- without the extension. Partial on is_current so superseded versions do not count in the
-- corpus statistics (document count, average length, IDF): measured on PGlite, a full index
-- reported total_docs = 4117 for 3003 live rows after one is_current flip.
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_textsearch') THEN
    BEGIN
      EXECUTE 'CREATE INDEX IF NOT EXISTS chunks_bm25_idx ON chunks USING bm25 (search_text) WITH (text_config=''english'') WHERE is_current';
    EXCEPTION WHEN OTHERS THEN
      RAISE WARNING 'bm25 index chunks_bm25_idx could not be created: %', SQLERRM;
    END;
  END IF;
END
$$;
