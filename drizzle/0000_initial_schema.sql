CREATE TABLE "chunks" (
	"id" text PRIMARY KEY NOT NULL,
	"source_id" text NOT NULL,
	"version_id" text NOT NULL,
	"is_current" boolean DEFAULT true NOT NULL,
	"uri" text NOT NULL,
	"ordinal" integer NOT NULL,
	"title" text NOT NULL,
	"body" text NOT NULL,
	"search_text" text NOT NULL,
	"search_vector" "tsvector" GENERATED ALWAYS AS (to_tsvector('english'::regconfig, search_text)) STORED,
	"locator" text,
	"tokens" integer NOT NULL,
	"metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "source_versions" (
	"id" text PRIMARY KEY NOT NULL,
	"source_id" text NOT NULL,
	"version_no" integer NOT NULL,
	"content_hash" text NOT NULL,
	"chunk_count" integer NOT NULL,
	"token_count" integer NOT NULL,
	"recorded_at" timestamp with time zone DEFAULT now() NOT NULL,
	"superseded_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "sources" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"kind" text NOT NULL,
	"sensitive" boolean DEFAULT false NOT NULL,
	"current_version_id" text,
	"stale" boolean DEFAULT false NOT NULL,
	"stale_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sources_name_unique" UNIQUE("name")
);
--> statement-breakpoint
CREATE TABLE "approval_audit" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"run_id" text NOT NULL,
	"node_id" text NOT NULL,
	"decision" text NOT NULL,
	"decided_by" text NOT NULL,
	"comment" text DEFAULT '' NOT NULL,
	"decided_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "run_nodes" (
	"run_id" text NOT NULL,
	"node_id" text NOT NULL,
	"status" text NOT NULL,
	"outcome" jsonb,
	"attempts" integer DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "run_nodes_run_id_node_id_pk" PRIMARY KEY("run_id","node_id")
);
--> statement-breakpoint
CREATE TABLE "runs" (
	"id" text PRIMARY KEY NOT NULL,
	"goal" text NOT NULL,
	"status" text NOT NULL,
	"plan_hash" text NOT NULL,
	"plan" jsonb NOT NULL,
	"result" jsonb,
	"error" text,
	"user_name" text NOT NULL,
	"pending_node_id" text,
	"cost_usd" double precision DEFAULT 0 NOT NULL,
	"latency_seconds" double precision DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "spans" (
	"id" text PRIMARY KEY NOT NULL,
	"run_id" text NOT NULL,
	"parent_id" text,
	"name" text NOT NULL,
	"category" text NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"ended_at" timestamp with time zone NOT NULL,
	"duration_ms" double precision NOT NULL,
	"tokens" integer DEFAULT 0 NOT NULL,
	"cost_usd" double precision DEFAULT 0 NOT NULL,
	"status" text NOT NULL,
	"attributes" jsonb DEFAULT '{}'::jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "plan_cache" (
	"id" text PRIMARY KEY NOT NULL,
	"intent_key" text NOT NULL,
	"source_fingerprint" text NOT NULL,
	"policy_fingerprint" text NOT NULL,
	"constraint_envelope" text NOT NULL,
	"source_names" text[] DEFAULT '{}' NOT NULL,
	"plan_hash" text NOT NULL,
	"payload" jsonb NOT NULL,
	"hits" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_hit_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "cost_observations" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"run_id" text NOT NULL,
	"plan_hash" text NOT NULL,
	"estimator" text NOT NULL,
	"field" text NOT NULL,
	"intent_class" text NOT NULL,
	"estimate" double precision NOT NULL,
	"low" double precision NOT NULL,
	"high" double precision NOT NULL,
	"actual" double precision NOT NULL,
	"observed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "source_versions" ADD CONSTRAINT "source_versions_source_id_sources_id_fk" FOREIGN KEY ("source_id") REFERENCES "public"."sources"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sources" ADD CONSTRAINT "sources_current_version_id_source_versions_id_fk" FOREIGN KEY ("current_version_id") REFERENCES "public"."source_versions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "approval_audit" ADD CONSTRAINT "approval_audit_run_id_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."runs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "run_nodes" ADD CONSTRAINT "run_nodes_run_id_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "chunks_current_source_idx" ON "chunks" USING btree ("source_id") WHERE is_current;--> statement-breakpoint
CREATE INDEX "chunks_version_idx" ON "chunks" USING btree ("version_id");--> statement-breakpoint
CREATE UNIQUE INDEX "source_versions_source_no_idx" ON "source_versions" USING btree ("source_id","version_no");--> statement-breakpoint
CREATE UNIQUE INDEX "approval_audit_run_node_idx" ON "approval_audit" USING btree ("run_id","node_id");--> statement-breakpoint
CREATE INDEX "runs_created_at_idx" ON "runs" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "runs_status_idx" ON "runs" USING btree ("status");--> statement-breakpoint
CREATE INDEX "spans_run_id_idx" ON "spans" USING btree ("run_id");--> statement-breakpoint
CREATE UNIQUE INDEX "plan_cache_key_idx" ON "plan_cache" USING btree ("intent_key","source_fingerprint","policy_fingerprint","constraint_envelope");--> statement-breakpoint
CREATE INDEX "cost_observations_estimator_idx" ON "cost_observations" USING btree ("estimator");