CREATE TABLE "knowledge_edges" (
	"from_id" text NOT NULL,
	"to_id" text NOT NULL,
	"kind" text NOT NULL,
	"recorded_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expired_at" timestamp with time zone,
	"metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	CONSTRAINT "knowledge_edges_from_id_to_id_kind_pk" PRIMARY KEY("from_id","to_id","kind"),
	CONSTRAINT "knowledge_edges_kind_check" CHECK ("knowledge_edges"."kind" in ('contains', 'derived_from', 'supersedes', 'contradicts'))
);
--> statement-breakpoint
CREATE TABLE "knowledge_nodes" (
	"id" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"source_id" text,
	"version_id" text,
	"chunk_id" text,
	"subject" text,
	"attribute" text,
	"value" text,
	"text" text,
	"confidence" real,
	"valid_from" timestamp with time zone,
	"valid_to" timestamp with time zone,
	"recorded_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expired_at" timestamp with time zone,
	"status" text DEFAULT 'current' NOT NULL,
	"status_reason" text,
	"metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	CONSTRAINT "knowledge_nodes_kind_check" CHECK ("knowledge_nodes"."kind" in ('source', 'chunk', 'summary', 'fact', 'memory')),
	CONSTRAINT "knowledge_nodes_status_check" CHECK ("knowledge_nodes"."status" in ('current', 'superseded', 'stale', 'expired'))
);
--> statement-breakpoint
CREATE INDEX "knowledge_edges_to_idx" ON "knowledge_edges" USING btree ("to_id","kind");--> statement-breakpoint
CREATE INDEX "knowledge_nodes_source_idx" ON "knowledge_nodes" USING btree ("source_id","kind");--> statement-breakpoint
CREATE INDEX "knowledge_nodes_version_idx" ON "knowledge_nodes" USING btree ("version_id");--> statement-breakpoint
CREATE INDEX "knowledge_nodes_chunk_idx" ON "knowledge_nodes" USING btree ("chunk_id") WHERE kind in ('fact', 'memory', 'summary');--> statement-breakpoint
CREATE INDEX "knowledge_nodes_key_idx" ON "knowledge_nodes" USING btree ("subject","attribute") WHERE kind in ('fact', 'memory');