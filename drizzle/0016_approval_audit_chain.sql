ALTER TABLE "approval_audit" ADD COLUMN "goal" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "approval_audit" ADD COLUMN "run_user" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "approval_audit" ADD COLUMN "required_role" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "approval_audit" ADD COLUMN "prev_hash" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "approval_audit" ADD COLUMN "row_hash" text DEFAULT '' NOT NULL;