CREATE TABLE "tier_admissions" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"limiter_key" text NOT NULL,
	"tokens" integer NOT NULL,
	"admitted_at" timestamp with time zone DEFAULT now() NOT NULL,
	"lease_until" timestamp with time zone NOT NULL,
	"settled_at" timestamp with time zone
);
--> statement-breakpoint
CREATE INDEX "tier_admissions_key_idx" ON "tier_admissions" USING btree ("limiter_key","admitted_at");