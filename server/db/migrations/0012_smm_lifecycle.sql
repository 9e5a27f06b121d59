CREATE TABLE "order_refill" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"number" bigserial NOT NULL,
	"order_id" uuid NOT NULL,
	"user_id" text NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL,
	"supplier_id" uuid,
	"supplier_ref" text,
	"note" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_polled_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	CONSTRAINT "order_refill_state_valid" CHECK ("order_refill"."state" IN ('pending', 'sent', 'completed', 'rejected'))
);
--> statement-breakpoint
ALTER TABLE "order" ADD COLUMN "runs" integer;--> statement-breakpoint
ALTER TABLE "order" ADD COLUMN "run_interval" integer;--> statement-breakpoint
ALTER TABLE "order" ADD COLUMN "start_count" integer;--> statement-breakpoint
ALTER TABLE "order" ADD COLUMN "cancel_requested_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "order_event" ADD COLUMN "kind" text DEFAULT 'status' NOT NULL;--> statement-breakpoint
ALTER TABLE "service" ADD COLUMN "smm_type" text;--> statement-breakpoint
ALTER TABLE "service" ADD COLUMN "dripfeed" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "service" ADD COLUMN "refill_days" integer;--> statement-breakpoint
ALTER TABLE "service" ADD COLUMN "cancelable" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "order_dispatch" ADD COLUMN "cancel_state" text;--> statement-breakpoint
ALTER TABLE "supplier_service" ADD COLUMN "refill" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "supplier_service" ADD COLUMN "cancel" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "supplier_service" ADD COLUMN "dripfeed" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "order_refill" ADD CONSTRAINT "order_refill_order_id_order_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."order"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_refill" ADD CONSTRAINT "order_refill_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "order_refill_number_uq" ON "order_refill" USING btree ("number");--> statement-breakpoint
CREATE UNIQUE INDEX "order_refill_open_uq" ON "order_refill" USING btree ("order_id") WHERE "order_refill"."state" IN ('pending', 'sent');--> statement-breakpoint
CREATE INDEX "order_refill_order_idx" ON "order_refill" USING btree ("order_id","created_at");--> statement-breakpoint
CREATE INDEX "order_refill_user_idx" ON "order_refill" USING btree ("user_id","number");--> statement-breakpoint
CREATE INDEX "order_refill_due_idx" ON "order_refill" USING btree ("state","next_attempt_at");--> statement-breakpoint
CREATE INDEX "order_dispatch_cancel_idx" ON "order_dispatch" USING btree ("cancel_state") WHERE "order_dispatch"."cancel_state" = 'requested';--> statement-breakpoint
ALTER TABLE "order" ADD CONSTRAINT "order_dripfeed_valid" CHECK (("order"."runs" IS NULL AND "order"."run_interval" IS NULL) OR ("order"."runs" >= 2 AND "order"."run_interval" >= 1));--> statement-breakpoint
ALTER TABLE "service" ADD CONSTRAINT "service_refill_days_valid" CHECK ("service"."refill_days" IS NULL OR "service"."refill_days" BETWEEN 1 AND 3650);--> statement-breakpoint
ALTER TABLE "order_dispatch" ADD CONSTRAINT "order_dispatch_cancel_state_valid" CHECK ("order_dispatch"."cancel_state" IS NULL OR "order_dispatch"."cancel_state" IN ('requested', 'sent', 'refused'));