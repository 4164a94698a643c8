CREATE TABLE IF NOT EXISTS "graph_entity_relations" (
	"chunk_id" text NOT NULL,
	"subject_id" text NOT NULL,
	"object_id" text NOT NULL,
	"version_id" text NOT NULL,
	"relation" text NOT NULL,
	"weight" real NOT NULL,
	CONSTRAINT "graph_entity_relations_chunk_id_subject_id_object_id_pk" PRIMARY KEY("chunk_id","subject_id","object_id")
);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "graph_entity_relations_version_idx" ON "graph_entity_relations" USING btree ("version_id");
