-- Semantic plan cache (hand-written): split key parts, an intent vector, retired plans kept for
-- near-miss diagnostics, per-minute lookup counters. Cached plans are disposable, so existing
-- rows (keyed the old way) are dropped rather than migrated.
DELETE FROM "plan_cache";
--> statement-breakpoint
DROP INDEX IF EXISTS "plan_cache_key_idx";
--> statement-breakpoint
ALTER TABLE "plan_cache"
  ADD COLUMN "exact_key" text NOT NULL,
  ADD COLUMN "intent_shape" text NOT NULL,
  ADD COLUMN "permission_fingerprint" text NOT NULL,
  ADD COLUMN "planner_version" text NOT NULL,
  ADD COLUMN "capability_fingerprint" text NOT NULL,
  ADD COLUMN "embedder_id" text NOT NULL,
  ADD COLUMN "intent_vector" real[] NOT NULL,
  ADD COLUMN "expires_at" timestamp with time zone;
--> statement-breakpoint
CREATE UNIQUE INDEX "plan_cache_exact_intent_idx" ON "plan_cache" USING btree ("exact_key","intent_key");
--> statement-breakpoint
CREATE INDEX "plan_cache_embedder_idx" ON "plan_cache" USING btree ("embedder_id","created_at");
--> statement-breakpoint
CREATE TABLE "plan_cache_retired" (
	"id" text NOT NULL,
	"exact_key" text NOT NULL,
	"embedder_id" text NOT NULL,
	"intent_key" text NOT NULL,
	"key" jsonb NOT NULL,
	"intent_vector" real[] NOT NULL,
	"source_names" text[] DEFAULT '{}' NOT NULL,
	"plan_hash" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"retired_at" timestamp with time zone NOT NULL,
	"retired_reason" text NOT NULL
);
--> statement-breakpoint
CREATE INDEX "plan_cache_retired_at_idx" ON "plan_cache_retired" USING btree ("embedder_id","retired_at");
--> statement-breakpoint
CREATE TABLE "plan_cache_stats" (
	"bucket_start" timestamp with time zone PRIMARY KEY NOT NULL,
	"lookups" integer DEFAULT 0 NOT NULL,
	"hits" integer DEFAULT 0 NOT NULL,
	"near_misses" integer DEFAULT 0 NOT NULL,
	"misses" integer DEFAULT 0 NOT NULL,
	"by_reason" jsonb DEFAULT '{}'::jsonb NOT NULL
);
--> statement-breakpoint
-- The `vector` column exists only where pgvector does (it would not even parse elsewhere); the
-- adapter checks for it and ranks in process without it (server/adapters/db/pg-plan-cache-store.ts).
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'vector') THEN
    EXECUTE 'ALTER TABLE "plan_cache" ADD COLUMN IF NOT EXISTS "intent_embedding" vector';
    EXECUTE 'ALTER TABLE "plan_cache_retired" ADD COLUMN IF NOT EXISTS "intent_embedding" vector';
  END IF;
END
$$;
