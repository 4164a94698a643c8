ALTER TABLE "chunks" ADD COLUMN "sensitive" boolean;--> statement-breakpoint
ALTER TABLE "chunks" ADD COLUMN "sensitive_kinds" text[];--> statement-breakpoint
CREATE INDEX "chunks_current_sensitive_idx" ON "chunks" USING btree ("source_id") WHERE is_current and sensitive;