CREATE TABLE "derived_index_builds" (
	"version_id" text NOT NULL,
	"index_name" text NOT NULL,
	"items" integer NOT NULL,
	"built_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "derived_index_builds_version_id_index_name_pk" PRIMARY KEY("version_id","index_name")
);
--> statement-breakpoint
CREATE TABLE "graph_entities" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "graph_passage_entities" (
	"chunk_id" text NOT NULL,
	"entity_id" text NOT NULL,
	"version_id" text NOT NULL,
	"role" text NOT NULL,
	"weight" real NOT NULL,
	CONSTRAINT "graph_passage_entities_chunk_id_entity_id_pk" PRIMARY KEY("chunk_id","entity_id")
);
--> statement-breakpoint
CREATE TABLE "identifiers" (
	"value" text NOT NULL,
	"kind" text NOT NULL,
	"chunk_id" text NOT NULL,
	"version_id" text NOT NULL,
	CONSTRAINT "identifiers_chunk_id_value_pk" PRIMARY KEY("chunk_id","value")
);
--> statement-breakpoint
CREATE INDEX "graph_passage_entities_version_idx" ON "graph_passage_entities" USING btree ("version_id");--> statement-breakpoint
CREATE INDEX "identifiers_value_idx" ON "identifiers" USING btree ("value" text_pattern_ops);--> statement-breakpoint
CREATE INDEX "identifiers_version_idx" ON "identifiers" USING btree ("version_id");