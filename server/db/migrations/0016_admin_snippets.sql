CREATE TABLE "admin_snippets" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"kind" text NOT NULL,
	"title" text NOT NULL,
	"body" text NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "admin_snippets_kind_valid" CHECK ("admin_snippets"."kind" IN ('reject_reason', 'result_template'))
);
--> statement-breakpoint
CREATE INDEX "admin_snippets_kind_position_idx" ON "admin_snippets" USING btree ("kind","position");