CREATE TABLE "order_dispatch" (
	"order_id" uuid PRIMARY KEY NOT NULL,
	"state" text DEFAULT 'queued' NOT NULL,
	"route_index" integer DEFAULT 0 NOT NULL,
	"supplier_id" uuid,
	"remote_id" text,
	"reference" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"rounds" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"claimed_at" timestamp with time zone,
	"sent_at" timestamp with time zone,
	"last_polled_at" timestamp with time zone,
	"polls" integer DEFAULT 0 NOT NULL,
	"remote_status" text,
	"last_error" text,
	"review_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "order_dispatch_state_valid" CHECK ("order_dispatch"."state" IN ('queued', 'sending', 'sent', 'waiting', 'review', 'done'))
);
--> statement-breakpoint
CREATE TABLE "service_route" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"service_id" uuid NOT NULL,
	"supplier_id" uuid NOT NULL,
	"remote_id" text NOT NULL,
	"position" integer NOT NULL,
	"field_map" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "service_route_position_valid" CHECK ("service_route"."position" >= 0)
);
--> statement-breakpoint
CREATE TABLE "supplier" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"protocol" text NOT NULL,
	"url" text NOT NULL,
	"username" text,
	"api_key_sealed" text NOT NULL,
	"api_key_hint" text NOT NULL,
	"state" text DEFAULT 'active' NOT NULL,
	"balance_micros" bigint,
	"currency" text,
	"low_balance_micros" bigint,
	"low_balance_alerted_at" timestamp with time zone,
	"last_error" text,
	"last_checked_at" timestamp with time zone,
	"consecutive_failures" integer DEFAULT 0 NOT NULL,
	"settings" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"catalogue_fetched_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "supplier_protocol_valid" CHECK ("supplier"."protocol" IN ('dhru', 'smm')),
	CONSTRAINT "supplier_state_valid" CHECK ("supplier"."state" IN ('active', 'failing', 'disabled'))
);
--> statement-breakpoint
CREATE TABLE "supplier_log" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"supplier_id" uuid NOT NULL,
	"order_ids" uuid[] DEFAULT '{}'::uuid[] NOT NULL,
	"action" text NOT NULL,
	"request" jsonb NOT NULL,
	"http_status" integer,
	"response" text,
	"error" text,
	"outcome" text NOT NULL,
	"ms" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "supplier_service" (
	"supplier_id" uuid NOT NULL,
	"remote_id" text NOT NULL,
	"name" text NOT NULL,
	"group_name" text NOT NULL,
	"type" text NOT NULL,
	"unit" text NOT NULL,
	"cost_micros" bigint NOT NULL,
	"min_quantity" integer,
	"max_quantity" integer,
	"delivery_time" text NOT NULL,
	"info" text NOT NULL,
	"fields" jsonb NOT NULL,
	"importable" boolean NOT NULL,
	"reason" text,
	"missing_since" timestamp with time zone,
	"seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "supplier_service_supplier_id_remote_id_pk" PRIMARY KEY("supplier_id","remote_id"),
	CONSTRAINT "supplier_service_unit_valid" CHECK ("supplier_service"."unit" IN ('order', '1000'))
);
--> statement-breakpoint
ALTER TABLE "audit_log" ALTER COLUMN "actor_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "order" ADD COLUMN "remains" integer;--> statement-breakpoint
ALTER TABLE "service" ADD COLUMN "markup_bp" integer;--> statement-breakpoint
ALTER TABLE "order_dispatch" ADD CONSTRAINT "order_dispatch_order_id_order_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."order"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_dispatch" ADD CONSTRAINT "order_dispatch_supplier_id_supplier_id_fk" FOREIGN KEY ("supplier_id") REFERENCES "public"."supplier"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_route" ADD CONSTRAINT "service_route_service_id_service_id_fk" FOREIGN KEY ("service_id") REFERENCES "public"."service"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_route" ADD CONSTRAINT "service_route_supplier_id_supplier_id_fk" FOREIGN KEY ("supplier_id") REFERENCES "public"."supplier"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "supplier_log" ADD CONSTRAINT "supplier_log_supplier_id_supplier_id_fk" FOREIGN KEY ("supplier_id") REFERENCES "public"."supplier"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "supplier_service" ADD CONSTRAINT "supplier_service_supplier_id_supplier_id_fk" FOREIGN KEY ("supplier_id") REFERENCES "public"."supplier"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "order_dispatch_due_idx" ON "order_dispatch" USING btree ("state","next_attempt_at");--> statement-breakpoint
CREATE INDEX "order_dispatch_poll_idx" ON "order_dispatch" USING btree ("supplier_id","state","last_polled_at");--> statement-breakpoint
CREATE UNIQUE INDEX "order_dispatch_reference_uq" ON "order_dispatch" USING btree ("supplier_id","reference") WHERE "order_dispatch"."reference" IS NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "service_route_position_uq" ON "service_route" USING btree ("service_id","position");--> statement-breakpoint
CREATE UNIQUE INDEX "service_route_remote_uq" ON "service_route" USING btree ("service_id","supplier_id","remote_id");--> statement-breakpoint
CREATE INDEX "service_route_supplier_idx" ON "service_route" USING btree ("supplier_id","remote_id");--> statement-breakpoint
CREATE UNIQUE INDEX "supplier_name_uq" ON "supplier" USING btree (lower("name"));--> statement-breakpoint
CREATE INDEX "supplier_log_supplier_idx" ON "supplier_log" USING btree ("supplier_id","id");--> statement-breakpoint
CREATE INDEX "supplier_log_orders_idx" ON "supplier_log" USING gin ("order_ids");--> statement-breakpoint
CREATE INDEX "supplier_log_created_idx" ON "supplier_log" USING btree ("created_at");--> statement-breakpoint
ALTER TABLE "service" ADD CONSTRAINT "service_markup_valid" CHECK ("service"."markup_bp" IS NULL OR "service"."markup_bp" >= 0);