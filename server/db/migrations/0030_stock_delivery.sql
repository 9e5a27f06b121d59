CREATE TABLE "stock_item" (
	"id" uuid PRIMARY KEY NOT NULL,
	"position" bigserial NOT NULL,
	"service_id" uuid NOT NULL,
	"sealed" text NOT NULL,
	"hash" text NOT NULL,
	"last4" text NOT NULL,
	"state" text DEFAULT 'available' NOT NULL,
	"order_id" uuid,
	"uploaded_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sold_at" timestamp with time zone,
	CONSTRAINT "stock_item_state_valid" CHECK ("stock_item"."state" IN ('available', 'sold', 'bad')),
	CONSTRAINT "stock_item_order_matches_state" CHECK (("stock_item"."state" = 'available') = ("stock_item"."order_id" IS NULL AND "stock_item"."sold_at" IS NULL))
);
--> statement-breakpoint
ALTER TABLE "order" ADD COLUMN "from_stock" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "service" ADD COLUMN "delivery" text DEFAULT 'supplier' NOT NULL;--> statement-breakpoint
ALTER TABLE "service" ADD COLUMN "low_stock_threshold" integer DEFAULT 5 NOT NULL;--> statement-breakpoint
ALTER TABLE "service" ADD COLUMN "low_stock_alerted" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "stock_item" ADD CONSTRAINT "stock_item_service_id_service_id_fk" FOREIGN KEY ("service_id") REFERENCES "public"."service"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stock_item" ADD CONSTRAINT "stock_item_order_id_order_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."order"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stock_item" ADD CONSTRAINT "stock_item_uploaded_by_user_id_fk" FOREIGN KEY ("uploaded_by") REFERENCES "public"."user"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "stock_item_hash_uq" ON "stock_item" USING btree ("service_id","hash");--> statement-breakpoint
CREATE INDEX "stock_item_available_idx" ON "stock_item" USING btree ("service_id","position") WHERE "stock_item"."state" = 'available';--> statement-breakpoint
CREATE UNIQUE INDEX "stock_item_sold_order_uq" ON "stock_item" USING btree ("order_id") WHERE "stock_item"."state" = 'sold';--> statement-breakpoint
CREATE INDEX "stock_item_order_idx" ON "stock_item" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "stock_item_service_state_idx" ON "stock_item" USING btree ("service_id","state");--> statement-breakpoint
ALTER TABLE "service" ADD CONSTRAINT "service_delivery_valid" CHECK ("service"."delivery" IN ('manual', 'supplier', 'stock'));--> statement-breakpoint
ALTER TABLE "service" ADD CONSTRAINT "service_low_stock_threshold_valid" CHECK ("service"."low_stock_threshold" >= 0);--> statement-breakpoint
-- custom SQL
-- Staff see 4 characters of an item at most.
ALTER TABLE "stock_item" ADD CONSTRAINT "stock_item_last4_short" CHECK (char_length("last4") <= 4);
--> statement-breakpoint
-- An item is never lost: never deleted, and once sold never available again (sold → bad only,
-- with its order kept).
CREATE FUNCTION stock_item_guard() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    RAISE EXCEPTION 'stock items are never deleted' USING ERRCODE = 'CM010';
  END IF;
  IF OLD.state <> 'available' AND (NEW.state = 'available' OR NEW.order_id IS DISTINCT FROM OLD.order_id) THEN
    RAISE EXCEPTION 'a sold stock item stays with its order' USING ERRCODE = 'CM010';
  END IF;
  IF OLD.state = 'bad' AND NEW.state <> 'bad' THEN
    RAISE EXCEPTION 'a bad stock item stays bad' USING ERRCODE = 'CM010';
  END IF;
  IF NEW.sealed IS DISTINCT FROM OLD.sealed OR NEW.hash IS DISTINCT FROM OLD.hash THEN
    RAISE EXCEPTION 'a stock item''s text never changes' USING ERRCODE = 'CM010';
  END IF;
  RETURN NEW;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER stock_item_guard BEFORE UPDATE OR DELETE ON "stock_item"
  FOR EACH ROW EXECUTE FUNCTION stock_item_guard();
