-- The stored search_vector stops being a generated column: where pg_textsearch is installed, bm25
-- is the lexical method and its index already runs the english parser over every row at insert;
-- a generated tsvector (plus its GIN index) ran it a second time and halved ingest throughput
-- (SciFact on PGlite: bm25 index alone 233 rows/s vs 118 rows/s with both, one loaded run).
-- Ingest now fills it inline only where pg_textsearch is missing (fulltext is then the lexical
-- method); elsewhere a derived-index pass fills it after ingest, for the reranker's features.
ALTER TABLE chunks ALTER COLUMN search_vector DROP EXPRESSION;
--> statement-breakpoint
-- Rows still waiting for the backfill: a small partial index makes "is anything pending?" an index probe.
CREATE INDEX IF NOT EXISTS chunks_search_vector_pending_idx ON chunks (id) WHERE search_vector IS NULL;
