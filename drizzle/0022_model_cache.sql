CREATE TABLE "model_cache" (
	"key" text PRIMARY KEY NOT NULL,
	"model_id" text NOT NULL,
	"tier" text NOT NULL,
	"source_names" text[] DEFAULT '{}' NOT NULL,
	"source_versions" jsonb NOT NULL,
	"chunk_ids" text[] DEFAULT '{}' NOT NULL,
	"response_text" text NOT NULL,
	"input_tokens" integer NOT NULL,
	"output_tokens" integer NOT NULL,
	"cost_usd" double precision NOT NULL,
	"latency_ms" integer NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "model_cache_stats" (
	"model_id" text NOT NULL,
	"intent_class" text NOT NULL,
	"lookups" integer DEFAULT 0 NOT NULL,
	"hits" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "model_cache_stats_model_id_intent_class_pk" PRIMARY KEY("model_id","intent_class")
);
--> statement-breakpoint
CREATE INDEX "model_cache_source_names_idx" ON "model_cache" USING gin ("source_names");--> statement-breakpoint
CREATE INDEX "model_cache_expires_idx" ON "model_cache" USING btree ("expires_at");