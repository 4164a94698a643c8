CREATE TABLE IF NOT EXISTS "bandit_arms" (
	"policy" text NOT NULL,
	"arm" text NOT NULL,
	"dimension" integer NOT NULL,
	"inverse" jsonb NOT NULL,
	"b" jsonb NOT NULL,
	"context_sum" jsonb NOT NULL,
	"pulls" integer DEFAULT 0 NOT NULL,
	"reward_sum" double precision DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "bandit_arms_policy_arm_pk" PRIMARY KEY("policy","arm")
);
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "bandit_decisions" (
	"run_id" text PRIMARY KEY NOT NULL,
	"policy" text NOT NULL,
	"arm" text NOT NULL,
	"context" jsonb NOT NULL,
	"explored" boolean NOT NULL,
	"judged_quality" double precision NOT NULL,
	"penalty" double precision NOT NULL,
	"reward" double precision NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "run_feedback" (
	"run_id" text NOT NULL,
	"user_name" text NOT NULL,
	"thumb" smallint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "run_feedback_run_id_user_name_pk" PRIMARY KEY("run_id","user_name"),
	CONSTRAINT "run_feedback_thumb_check" CHECK ("thumb" IN (-1, 1))
);
