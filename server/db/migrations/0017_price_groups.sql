CREATE TABLE "customer_price_group" (
	"user_id" text PRIMARY KEY NOT NULL,
	"group_id" uuid NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "price_group" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"discount_bp" integer DEFAULT 0 NOT NULL,
	"is_default" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "price_group_discount_valid" CHECK ("price_group"."discount_bp" BETWEEN 0 AND 9999)
);
--> statement-breakpoint
CREATE TABLE "price_group_override" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"group_id" uuid NOT NULL,
	"category" text,
	"service_id" uuid,
	"discount_bp" integer,
	"price" bigint,
	CONSTRAINT "price_group_override_target" CHECK (("price_group_override"."category" IS NULL) <> ("price_group_override"."service_id" IS NULL)),
	CONSTRAINT "price_group_override_kind" CHECK (("price_group_override"."discount_bp" IS NULL) <> ("price_group_override"."price" IS NULL)),
	CONSTRAINT "price_group_override_values" CHECK (("price_group_override"."discount_bp" IS NULL OR "price_group_override"."discount_bp" BETWEEN 0 AND 9999) AND ("price_group_override"."price" IS NULL OR "price_group_override"."price" > 0))
);
--> statement-breakpoint
CREATE TABLE "special_price" (
	"user_id" text NOT NULL,
	"service_id" uuid NOT NULL,
	"price" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "special_price_user_id_service_id_pk" PRIMARY KEY("user_id","service_id"),
	CONSTRAINT "special_price_positive" CHECK ("special_price"."price" > 0)
);
--> statement-breakpoint
ALTER TABLE "customer_price_group" ADD CONSTRAINT "customer_price_group_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "customer_price_group" ADD CONSTRAINT "customer_price_group_group_id_price_group_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."price_group"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "price_group_override" ADD CONSTRAINT "price_group_override_group_id_price_group_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."price_group"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "price_group_override" ADD CONSTRAINT "price_group_override_service_id_service_id_fk" FOREIGN KEY ("service_id") REFERENCES "public"."service"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "special_price" ADD CONSTRAINT "special_price_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "special_price" ADD CONSTRAINT "special_price_service_id_service_id_fk" FOREIGN KEY ("service_id") REFERENCES "public"."service"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "customer_price_group_group_idx" ON "customer_price_group" USING btree ("group_id");--> statement-breakpoint
CREATE UNIQUE INDEX "price_group_name_uq" ON "price_group" USING btree (lower("name"));--> statement-breakpoint
CREATE UNIQUE INDEX "price_group_default_uq" ON "price_group" USING btree ("is_default") WHERE "price_group"."is_default";--> statement-breakpoint
CREATE UNIQUE INDEX "price_group_override_category_uq" ON "price_group_override" USING btree ("group_id","category") WHERE "price_group_override"."category" IS NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "price_group_override_service_uq" ON "price_group_override" USING btree ("group_id","service_id") WHERE "price_group_override"."service_id" IS NOT NULL;