ALTER TABLE "cost_observations" ADD COLUMN "goal_tokens" integer;--> statement-breakpoint
ALTER TABLE "cost_observations" ADD COLUMN "source_tokens" double precision;--> statement-breakpoint
ALTER TABLE "cost_observations" ADD COLUMN "top_k" integer;