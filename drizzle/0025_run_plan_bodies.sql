CREATE TABLE "run_plan_bodies" (
	"hash" text PRIMARY KEY NOT NULL,
	"body" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "runs" ADD COLUMN "plan_body_hash" text;--> statement-breakpoint
ALTER TABLE "runs" ADD CONSTRAINT "runs_plan_body_hash_run_plan_bodies_hash_fk" FOREIGN KEY ("plan_body_hash") REFERENCES "public"."run_plan_bodies"("hash") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "runs_plan_body_hash_idx" ON "runs" USING btree ("plan_body_hash");