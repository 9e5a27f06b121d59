ALTER TABLE "order" ADD COLUMN "cost" bigint;--> statement-breakpoint
ALTER TABLE "order" ADD COLUMN "supplier_id" uuid;--> statement-breakpoint
ALTER TABLE "order" ADD COLUMN "settled_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "order_settled_idx" ON "order" USING btree ("settled_at") WHERE "order"."settled_at" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "ledger_transfer_kind_created_idx" ON "ledger_transfer" USING btree ("kind","created_at");--> statement-breakpoint
ALTER TABLE "order" ADD CONSTRAINT "order_cost_non_negative" CHECK ("order"."cost" IS NULL OR "order"."cost" >= 0);