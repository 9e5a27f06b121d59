CREATE TABLE "ledger_credit_limit" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"account_id" uuid NOT NULL,
	"credit_limit" bigint NOT NULL,
	"after_entry_id" bigint NOT NULL,
	"actor_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ledger_credit_limit_non_negative" CHECK ("ledger_credit_limit"."credit_limit" >= 0)
);
--> statement-breakpoint
ALTER TABLE "ledger_account" DROP CONSTRAINT "ledger_account_customer_non_negative";--> statement-breakpoint
ALTER TABLE "ledger_account" ADD COLUMN "credit_limit" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "ledger_credit_limit" ADD CONSTRAINT "ledger_credit_limit_account_id_ledger_account_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."ledger_account"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ledger_credit_limit_account_idx" ON "ledger_credit_limit" USING btree ("account_id","after_entry_id");--> statement-breakpoint
ALTER TABLE "ledger_account" ADD CONSTRAINT "ledger_account_held_non_negative" CHECK ("ledger_account"."user_id" IS NULL OR "ledger_account"."kind" = 'available' OR "ledger_account"."balance" >= 0);--> statement-breakpoint
ALTER TABLE "ledger_account" ADD CONSTRAINT "ledger_account_credit_limit_valid" CHECK ("ledger_account"."credit_limit" >= 0 AND ("ledger_account"."credit_limit" = 0 OR ("ledger_account"."user_id" IS NOT NULL AND "ledger_account"."kind" = 'available')));