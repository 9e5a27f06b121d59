CREATE TABLE "order_file" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" text NOT NULL,
	"service_id" uuid NOT NULL,
	"field_key" text NOT NULL,
	"order_id" uuid,
	"name" text NOT NULL,
	"content_type" text NOT NULL,
	"size" integer NOT NULL,
	"sha256" text NOT NULL,
	"data" "bytea" NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"attached_at" timestamp with time zone,
	CONSTRAINT "order_file_size_valid" CHECK ("order_file"."size" > 0 AND "order_file"."size" = octet_length("order_file"."data")),
	CONSTRAINT "order_file_attached" CHECK (("order_file"."order_id" IS NULL) = ("order_file"."attached_at" IS NULL))
);
--> statement-breakpoint
ALTER TABLE "order_file" ADD CONSTRAINT "order_file_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_file" ADD CONSTRAINT "order_file_service_id_service_id_fk" FOREIGN KEY ("service_id") REFERENCES "public"."service"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_file" ADD CONSTRAINT "order_file_order_id_order_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."order"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "order_file_order_field_uq" ON "order_file" USING btree ("order_id","field_key") WHERE "order_file"."order_id" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "order_file_pending_idx" ON "order_file" USING btree ("user_id","created_at") WHERE "order_file"."order_id" IS NULL;