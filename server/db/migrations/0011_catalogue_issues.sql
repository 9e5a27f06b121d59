ALTER TABLE "supplier" ADD COLUMN "catalogue_issues" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "supplier" ADD COLUMN "catalogue_issue_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "supplier_service" ADD COLUMN "cost_problem" text;