CREATE TABLE "order" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"number" bigserial NOT NULL,
	"user_id" text NOT NULL,
	"service_id" uuid NOT NULL,
	"category" text NOT NULL,
	"service_name" text NOT NULL,
	"quantity" integer DEFAULT 1 NOT NULL,
	"fields" jsonb NOT NULL,
	"identifier" text,
	"inflight_key" text,
	"price" bigint NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"result" text,
	"reject_reason" text,
	"idempotency_key" text,
	"request_hash" text,
	"supplier_ref" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "order_price_positive" CHECK ("order"."price" > 0),
	CONSTRAINT "order_quantity_positive" CHECK ("order"."quantity" > 0),
	CONSTRAINT "order_status_valid" CHECK ("order"."status" IN ('pending', 'processing', 'completed', 'rejected', 'cancelled', 'partial'))
);
--> statement-breakpoint
CREATE TABLE "order_event" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"order_id" uuid NOT NULL,
	"status" text NOT NULL,
	"note" text,
	"actor_id" text,
	"actor_role" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "service" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"category" text NOT NULL,
	"name" text NOT NULL,
	"description" text NOT NULL,
	"delivery_time" text NOT NULL,
	"price" bigint NOT NULL,
	"unit" text DEFAULT 'order' NOT NULL,
	"min_quantity" integer,
	"max_quantity" integer,
	"fields" jsonb NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"sort_order" integer DEFAULT 0 NOT NULL,
	"allow_recheck" boolean DEFAULT false NOT NULL,
	"supplier" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "service_price_positive" CHECK ("service"."price" > 0),
	CONSTRAINT "service_unit_valid" CHECK ("service"."unit" IN ('order', '1000')),
	CONSTRAINT "service_quantity_valid" CHECK (("service"."unit" = 'order') OR ("service"."min_quantity" IS NOT NULL AND "service"."max_quantity" IS NOT NULL AND "service"."min_quantity" > 0 AND "service"."max_quantity" >= "service"."min_quantity")),
	CONSTRAINT "service_category_valid" CHECK ("service"."category" IN ('IMEI', 'unlock', 'licenses', 'streaming', 'gaming', 'social', 'cleanimei'))
);
--> statement-breakpoint
ALTER TABLE "order" ADD CONSTRAINT "order_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order" ADD CONSTRAINT "order_service_id_service_id_fk" FOREIGN KEY ("service_id") REFERENCES "public"."service"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_event" ADD CONSTRAINT "order_event_order_id_order_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."order"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "order_number_uq" ON "order" USING btree ("number");--> statement-breakpoint
CREATE UNIQUE INDEX "order_idempotency_uq" ON "order" USING btree ("user_id","idempotency_key");--> statement-breakpoint
CREATE UNIQUE INDEX "order_inflight_uq" ON "order" USING btree ("inflight_key");--> statement-breakpoint
CREATE INDEX "order_user_created_idx" ON "order" USING btree ("user_id","created_at","id");--> statement-breakpoint
CREATE INDEX "order_user_status_idx" ON "order" USING btree ("user_id","status");--> statement-breakpoint
CREATE INDEX "order_status_created_idx" ON "order" USING btree ("status","created_at");--> statement-breakpoint
CREATE INDEX "order_user_identifier_idx" ON "order" USING btree ("user_id","identifier");--> statement-breakpoint
CREATE INDEX "order_event_order_idx" ON "order_event" USING btree ("order_id","id");--> statement-breakpoint
CREATE INDEX "service_category_idx" ON "service" USING btree ("category","active","sort_order");