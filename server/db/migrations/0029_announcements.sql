CREATE TABLE "announcement" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"title" text NOT NULL,
	"body" text NOT NULL,
	"for_everyone" boolean DEFAULT true NOT NULL,
	"pinned" boolean DEFAULT false NOT NULL,
	"starts_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ends_at" timestamp with time zone,
	"email" boolean DEFAULT false NOT NULL,
	"email_done_at" timestamp with time zone,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "announcement_email" (
	"announcement_id" uuid NOT NULL,
	"user_id" text NOT NULL,
	"queued_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "announcement_email_announcement_id_user_id_pk" PRIMARY KEY("announcement_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "announcement_group" (
	"announcement_id" uuid NOT NULL,
	"group_id" uuid NOT NULL,
	CONSTRAINT "announcement_group_announcement_id_group_id_pk" PRIMARY KEY("announcement_id","group_id")
);
--> statement-breakpoint
CREATE TABLE "announcement_read" (
	"announcement_id" uuid NOT NULL,
	"user_id" text NOT NULL,
	"read_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "announcement_read_announcement_id_user_id_pk" PRIMARY KEY("announcement_id","user_id")
);
--> statement-breakpoint
ALTER TABLE "announcement" ADD CONSTRAINT "announcement_created_by_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "announcement_email" ADD CONSTRAINT "announcement_email_announcement_id_announcement_id_fk" FOREIGN KEY ("announcement_id") REFERENCES "public"."announcement"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "announcement_email" ADD CONSTRAINT "announcement_email_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "announcement_group" ADD CONSTRAINT "announcement_group_announcement_id_announcement_id_fk" FOREIGN KEY ("announcement_id") REFERENCES "public"."announcement"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "announcement_group" ADD CONSTRAINT "announcement_group_group_id_price_group_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."price_group"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "announcement_read" ADD CONSTRAINT "announcement_read_announcement_id_announcement_id_fk" FOREIGN KEY ("announcement_id") REFERENCES "public"."announcement"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "announcement_read" ADD CONSTRAINT "announcement_read_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "announcement_live_idx" ON "announcement" USING btree ("starts_at") WHERE "announcement"."deleted_at" IS NULL;--> statement-breakpoint
CREATE INDEX "announcement_group_group_idx" ON "announcement_group" USING btree ("group_id");--> statement-breakpoint
CREATE INDEX "announcement_read_user_idx" ON "announcement_read" USING btree ("user_id");--> statement-breakpoint
-- custom SQL
ALTER TABLE "announcement" ADD CONSTRAINT "announcement_title_valid"
  CHECK (char_length(btrim("title")) BETWEEN 1 AND 120);
--> statement-breakpoint
ALTER TABLE "announcement" ADD CONSTRAINT "announcement_body_valid"
  CHECK (char_length(btrim("body")) BETWEEN 1 AND 2000);
--> statement-breakpoint
ALTER TABLE "announcement" ADD CONSTRAINT "announcement_window_valid"
  CHECK ("ends_at" IS NULL OR "ends_at" > "starts_at");
--> statement-breakpoint
-- Announcements whose e-mail is still being sent (the periodic sweep reads only these).
CREATE INDEX "announcement_email_due_idx" ON "announcement" ("starts_at")
  WHERE "email" AND "email_done_at" IS NULL AND "deleted_at" IS NULL;
