ALTER TABLE "runs" ADD COLUMN "owner" text;--> statement-breakpoint
ALTER TABLE "runs" ADD COLUMN "heartbeat_at" timestamp with time zone;