-- Calibration (learned-v2): the plan shape each observation came from, and an index for the
-- per-field time series the /calibration dashboard reads. Idempotent: safe on PGlite and Postgres 15.
ALTER TABLE "cost_observations" ADD COLUMN IF NOT EXISTS "plan_shape" text;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "cost_observations_field_time_idx" ON "cost_observations" USING btree ("estimator","field","observed_at");
