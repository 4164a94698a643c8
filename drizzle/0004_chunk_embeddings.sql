CREATE TABLE "chunk_embeddings" (
	"chunk_id" text NOT NULL,
	"embedder_id" text NOT NULL,
	"dims" integer NOT NULL,
	"embedding" vector NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "chunk_embeddings_chunk_id_embedder_id_pk" PRIMARY KEY("chunk_id","embedder_id"),
	CONSTRAINT "chunk_embeddings_dims_check" CHECK (vector_dims("chunk_embeddings"."embedding") = "chunk_embeddings"."dims")
);
--> statement-breakpoint
CREATE TABLE "embedder_states" (
	"embedder_id" text PRIMARY KEY NOT NULL,
	"state" jsonb NOT NULL,
	"fitted_at" timestamp with time zone DEFAULT now() NOT NULL
);
