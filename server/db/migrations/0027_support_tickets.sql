CREATE TABLE "ticket" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"number" bigserial NOT NULL,
	"user_id" text NOT NULL,
	"subject" text NOT NULL,
	"category" text NOT NULL,
	"state" text DEFAULT 'open' NOT NULL,
	"assignee_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_message_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_customer_message_at" timestamp with time zone,
	"last_staff_message_at" timestamp with time zone,
	"first_response_at" timestamp with time zone,
	"closed_at" timestamp with time zone,
	"customer_read_at" timestamp with time zone,
	"staff_read_at" timestamp with time zone,
	CONSTRAINT "ticket_closed_at" CHECK (("ticket"."state" = 'closed') = ("ticket"."closed_at" IS NOT NULL))
);
--> statement-breakpoint
CREATE TABLE "ticket_attachment" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"ticket_id" uuid NOT NULL,
	"message_id" uuid NOT NULL,
	"name" text NOT NULL,
	"content_type" text NOT NULL,
	"size" integer NOT NULL,
	"sha256" text NOT NULL,
	"data" "bytea" NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ticket_attachment_size_valid" CHECK ("ticket_attachment"."size" > 0 AND "ticket_attachment"."size" <= 5242880 AND "ticket_attachment"."size" = octet_length("ticket_attachment"."data")),
	CONSTRAINT "ticket_attachment_type_valid" CHECK ("ticket_attachment"."content_type" IN ('image/png', 'image/jpeg', 'image/gif', 'image/webp', 'application/pdf'))
);
--> statement-breakpoint
CREATE TABLE "ticket_message" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"ticket_id" uuid NOT NULL,
	"author_kind" text NOT NULL,
	"author_id" text,
	"body" text NOT NULL,
	"internal" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ticket_message_author_kind_valid" CHECK ("ticket_message"."author_kind" IN ('customer', 'staff', 'system')),
	CONSTRAINT "ticket_message_internal_staff" CHECK (NOT "ticket_message"."internal" OR "ticket_message"."author_kind" = 'staff'),
	CONSTRAINT "ticket_message_author" CHECK (("ticket_message"."author_kind" = 'system') = ("ticket_message"."author_id" IS NULL))
);
--> statement-breakpoint
CREATE TABLE "ticket_order" (
	"ticket_id" uuid NOT NULL,
	"order_id" uuid NOT NULL,
	CONSTRAINT "ticket_order_ticket_id_order_id_pk" PRIMARY KEY("ticket_id","order_id")
);
--> statement-breakpoint
ALTER TABLE "admin_snippets" DROP CONSTRAINT "admin_snippets_kind_valid";--> statement-breakpoint
ALTER TABLE "ticket" ADD CONSTRAINT "ticket_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticket" ADD CONSTRAINT "ticket_assignee_id_user_id_fk" FOREIGN KEY ("assignee_id") REFERENCES "public"."user"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticket_attachment" ADD CONSTRAINT "ticket_attachment_ticket_id_ticket_id_fk" FOREIGN KEY ("ticket_id") REFERENCES "public"."ticket"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticket_attachment" ADD CONSTRAINT "ticket_attachment_message_id_ticket_message_id_fk" FOREIGN KEY ("message_id") REFERENCES "public"."ticket_message"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticket_message" ADD CONSTRAINT "ticket_message_ticket_id_ticket_id_fk" FOREIGN KEY ("ticket_id") REFERENCES "public"."ticket"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticket_message" ADD CONSTRAINT "ticket_message_author_id_user_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."user"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticket_order" ADD CONSTRAINT "ticket_order_ticket_id_ticket_id_fk" FOREIGN KEY ("ticket_id") REFERENCES "public"."ticket"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticket_order" ADD CONSTRAINT "ticket_order_order_id_order_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."order"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "ticket_number_uq" ON "ticket" USING btree ("number");--> statement-breakpoint
CREATE INDEX "ticket_user_idx" ON "ticket" USING btree ("user_id","last_message_at");--> statement-breakpoint
CREATE INDEX "ticket_state_idx" ON "ticket" USING btree ("state","last_message_at");--> statement-breakpoint
CREATE INDEX "ticket_assignee_idx" ON "ticket" USING btree ("assignee_id","last_message_at");--> statement-breakpoint
CREATE INDEX "ticket_category_idx" ON "ticket" USING btree ("category","last_message_at");--> statement-breakpoint
CREATE INDEX "ticket_last_message_idx" ON "ticket" USING btree ("last_message_at");--> statement-breakpoint
CREATE INDEX "ticket_attachment_message_idx" ON "ticket_attachment" USING btree ("message_id");--> statement-breakpoint
CREATE INDEX "ticket_attachment_ticket_idx" ON "ticket_attachment" USING btree ("ticket_id");--> statement-breakpoint
CREATE INDEX "ticket_message_ticket_idx" ON "ticket_message" USING btree ("ticket_id","created_at");--> statement-breakpoint
CREATE INDEX "ticket_order_order_idx" ON "ticket_order" USING btree ("order_id");--> statement-breakpoint
ALTER TABLE "admin_snippets" ADD CONSTRAINT "admin_snippets_kind_valid" CHECK ("admin_snippets"."kind" IN ('reject_reason', 'result_template', 'ticket_reply'));--> statement-breakpoint
-- custom SQL
ALTER TABLE "ticket" ADD CONSTRAINT "ticket_state_valid" CHECK ("state" IN ('open', 'answered', 'waiting_customer', 'closed'));--> statement-breakpoint
ALTER TABLE "ticket" ADD CONSTRAINT "ticket_category_valid" CHECK ("category" IN ('order', 'payment', 'account', 'api', 'other'));--> statement-breakpoint
ALTER TABLE "ticket" ADD CONSTRAINT "ticket_number_positive" CHECK ("number" > 0);--> statement-breakpoint
-- Readable numbers: the first ticket is #1001.
ALTER SEQUENCE "ticket_number_seq" RESTART WITH 1001;--> statement-breakpoint
-- The customer's unread count (tickets with a staff answer after the customer last read them).
CREATE INDEX "ticket_customer_unread_idx" ON "ticket" ("user_id") WHERE "last_staff_message_at" IS NOT NULL AND ("customer_read_at" IS NULL OR "last_staff_message_at" > "customer_read_at");--> statement-breakpoint
-- Staff: tickets with a customer message nobody on the desk has read yet.
CREATE INDEX "ticket_staff_unread_idx" ON "ticket" ("last_message_at") WHERE "last_customer_message_at" IS NOT NULL AND ("staff_read_at" IS NULL OR "last_customer_message_at" > "staff_read_at");--> statement-breakpoint
-- The auto-close sweep: answered or waiting tickets by their last staff answer.
CREATE INDEX "ticket_auto_close_idx" ON "ticket" ("last_staff_message_at") WHERE "state" IN ('answered', 'waiting_customer');
