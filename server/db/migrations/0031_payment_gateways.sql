CREATE TABLE "account_flag" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" text NOT NULL,
	"payment_id" uuid,
	"reason" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"cleared_at" timestamp with time zone,
	"cleared_by" text
);
--> statement-breakpoint
CREATE TABLE "gateway_setting" (
	"method" text PRIMARY KEY NOT NULL,
	"fee_percent_bp" integer DEFAULT 0 NOT NULL,
	"fee_fixed" bigint DEFAULT 0 NOT NULL,
	"min_amount" bigint NOT NULL,
	"max_amount" bigint NOT NULL,
	"updated_by" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "gateway_setting_method_valid" CHECK ("gateway_setting"."method" IN ('stripe', 'paypal', 'crypto', 'mercadopago')),
	CONSTRAINT "gateway_setting_fee_valid" CHECK ("gateway_setting"."fee_percent_bp" BETWEEN 0 AND 5000 AND "gateway_setting"."fee_fixed" >= 0),
	CONSTRAINT "gateway_setting_limits" CHECK ("gateway_setting"."min_amount" > 0 AND "gateway_setting"."max_amount" >= "gateway_setting"."min_amount")
);
--> statement-breakpoint
CREATE TABLE "payment_settings" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"hold_threshold" bigint,
	"mercadopago_rate" text,
	"mercadopago_rate_updated_at" timestamp with time zone,
	"shop_name" text DEFAULT '' NOT NULL,
	"shop_tax_id" text DEFAULT '' NOT NULL,
	"shop_address" text DEFAULT '' NOT NULL,
	"updated_by" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payment_settings_single" CHECK ("payment_settings"."id" = 1),
	CONSTRAINT "payment_settings_hold_valid" CHECK ("payment_settings"."hold_threshold" IS NULL OR "payment_settings"."hold_threshold" >= 0)
);
--> statement-breakpoint
CREATE TABLE "receipt" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"number" text NOT NULL,
	"year" integer NOT NULL,
	"seq" integer NOT NULL,
	"payment_id" uuid NOT NULL,
	"transfer_id" uuid NOT NULL,
	"user_id" text NOT NULL,
	"method" text NOT NULL,
	"amount" bigint NOT NULL,
	"fee" bigint NOT NULL,
	"charged_amount" bigint,
	"charged_currency" text,
	"description" text NOT NULL,
	"customer" jsonb NOT NULL,
	"shop" jsonb NOT NULL,
	"issued_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "receipt_counter" (
	"year" integer PRIMARY KEY NOT NULL,
	"last" integer NOT NULL,
	CONSTRAINT "receipt_counter_positive" CHECK ("receipt_counter"."last" > 0)
);
--> statement-breakpoint
ALTER TABLE "payment" DROP CONSTRAINT "payment_method_valid";--> statement-breakpoint
ALTER TABLE "payment" DROP CONSTRAINT "payment_status_valid";--> statement-breakpoint
ALTER TABLE "manual_method" ADD COLUMN "fee_percent_bp" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "manual_method" ADD COLUMN "fee_fixed" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "payment" ADD COLUMN "provider_payment_id" text;--> statement-breakpoint
ALTER TABLE "payment" ADD COLUMN "provider_status" text;--> statement-breakpoint
ALTER TABLE "payment" ADD COLUMN "checkout_url" text;--> statement-breakpoint
ALTER TABLE "payment" ADD COLUMN "fee" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "payment" ADD COLUMN "charged_amount" bigint;--> statement-breakpoint
ALTER TABLE "payment" ADD COLUMN "charged_currency" text;--> statement-breakpoint
ALTER TABLE "payment" ADD COLUMN "exchange_rate" text;--> statement-breakpoint
ALTER TABLE "payment" ADD COLUMN "note" text;--> statement-breakpoint
ALTER TABLE "payment" ADD COLUMN "hold_reason" text;--> statement-breakpoint
ALTER TABLE "payment" ADD COLUMN "reversed_amount" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "account_flag" ADD CONSTRAINT "account_flag_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "account_flag" ADD CONSTRAINT "account_flag_payment_id_payment_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payment"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "account_flag" ADD CONSTRAINT "account_flag_cleared_by_user_id_fk" FOREIGN KEY ("cleared_by") REFERENCES "public"."user"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gateway_setting" ADD CONSTRAINT "gateway_setting_updated_by_user_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."user"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_settings" ADD CONSTRAINT "payment_settings_updated_by_user_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."user"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "receipt" ADD CONSTRAINT "receipt_payment_id_payment_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payment"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "receipt" ADD CONSTRAINT "receipt_transfer_id_ledger_transfer_id_fk" FOREIGN KEY ("transfer_id") REFERENCES "public"."ledger_transfer"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "receipt" ADD CONSTRAINT "receipt_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "account_flag_open_uq" ON "account_flag" USING btree ("user_id") WHERE "account_flag"."cleared_at" IS NULL;--> statement-breakpoint
CREATE INDEX "account_flag_created_idx" ON "account_flag" USING btree ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "receipt_number_uq" ON "receipt" USING btree ("number");--> statement-breakpoint
CREATE UNIQUE INDEX "receipt_year_seq_uq" ON "receipt" USING btree ("year","seq");--> statement-breakpoint
CREATE UNIQUE INDEX "receipt_transfer_uq" ON "receipt" USING btree ("transfer_id");--> statement-breakpoint
CREATE INDEX "receipt_user_idx" ON "receipt" USING btree ("user_id","issued_at");--> statement-breakpoint
CREATE INDEX "receipt_issued_idx" ON "receipt" USING btree ("issued_at");--> statement-breakpoint
CREATE INDEX "receipt_payment_idx" ON "receipt" USING btree ("payment_id");--> statement-breakpoint
CREATE INDEX "payment_provider_payment_idx" ON "payment" USING btree ("method","provider_payment_id");--> statement-breakpoint
ALTER TABLE "manual_method" ADD CONSTRAINT "manual_method_fee_valid" CHECK ("manual_method"."fee_percent_bp" BETWEEN 0 AND 5000 AND "manual_method"."fee_fixed" >= 0);--> statement-breakpoint
ALTER TABLE "payment" ADD CONSTRAINT "payment_fee_valid" CHECK ("payment"."fee" >= 0 AND "payment"."reversed_amount" >= 0);--> statement-breakpoint
ALTER TABLE "payment" ADD CONSTRAINT "payment_method_valid" CHECK ("payment"."method" IN ('stripe', 'manual', 'voucher', 'paypal', 'crypto', 'mercadopago'));--> statement-breakpoint
ALTER TABLE "payment" ADD CONSTRAINT "payment_status_valid" CHECK ("payment"."status" IN ('pending', 'review', 'completed', 'reversed', 'rejected', 'expired'));

--> statement-breakpoint
-- custom SQL
-- Reversed top-ups (docs/domain.md "Payment gateways"): a refund or chargeback of a credited
-- top-up is debited even when it takes the customer's balance below zero (or below their
-- credit limit); the account is then blocked from ordering by an account_flag. Only the guarded
-- debit of cometa_transfer and the floor trigger's function change from migration 0024.
CREATE OR REPLACE FUNCTION cometa_transfer(
  p_kind text,
  p_from uuid,
  p_to uuid,
  p_amount bigint,
  p_reference_type text,
  p_reference_id text,
  p_idempotency_key text,
  p_description text,
  p_actor_id text
) RETURNS TABLE (moved_transfer_id uuid, was_replayed boolean) LANGUAGE plpgsql AS $$
DECLARE
  v_id uuid;
  v_existing ledger_transfer%ROWTYPE;
  v_debit_balance bigint;
  v_credit_balance bigint;
  v_limit bigint;
BEGIN
  -- A concurrent transfer with the same key waits here for the first to commit or roll back.
  INSERT INTO ledger_transfer (kind, debit_account_id, credit_account_id, amount, reference_type,
                               reference_id, idempotency_key, description, actor_id)
  VALUES (p_kind, p_from, p_to, p_amount, p_reference_type, p_reference_id, p_idempotency_key,
          p_description, p_actor_id)
  ON CONFLICT (idempotency_key) DO NOTHING
  RETURNING id INTO v_id;
  IF v_id IS NULL THEN
    SELECT * INTO v_existing FROM ledger_transfer WHERE idempotency_key = p_idempotency_key;
    IF NOT FOUND THEN
      RAISE EXCEPTION 'idempotency key % claimed but transfer not found', p_idempotency_key;
    END IF;
    IF v_existing.debit_account_id <> p_from OR v_existing.credit_account_id <> p_to
       OR v_existing.amount <> p_amount THEN
      RAISE EXCEPTION 'idempotency key % already used with other data', p_idempotency_key
        USING ERRCODE = 'CM002';
    END IF;
    RETURN QUERY SELECT v_existing.id, true;
    RETURN;
  END IF;

  -- FOR NO KEY UPDATE (the lock the balance UPDATE takes anyway) in id order: opposite transfers
  -- cannot deadlock, and it does not conflict with the KEY SHARE locks of the foreign keys.
  PERFORM 1 FROM ledger_account WHERE id IN (p_from, p_to) ORDER BY id FOR NO KEY UPDATE;

  -- The guarded debit: a customer account goes no lower than minus its credit limit (0 for
  -- 'held' and for customers without credit). The limit is read on the locked row, so a
  -- parallel burst of debits and a concurrent change of the limit are serialised.
  -- A reversed top-up (refund, chargeback: 'topup_reversal') takes back what was credited even
  -- past the floor: the money has already left. The trigger below reads the same kind.
  PERFORM set_config('cometa.transfer_kind', p_kind, true);
  UPDATE ledger_account SET balance = balance - p_amount
   WHERE id = p_from
     AND (user_id IS NULL OR p_kind = 'topup_reversal' OR balance - p_amount >= -credit_limit)
  RETURNING balance INTO v_debit_balance;
  PERFORM set_config('cometa.transfer_kind', '', true);
  IF v_debit_balance IS NULL THEN
    SELECT credit_limit INTO v_limit FROM ledger_account WHERE id = p_from;
    RAISE EXCEPTION 'insufficient funds in account %', p_from
      USING ERRCODE = 'CM001', DETAIL = COALESCE(v_limit, 0)::text;
  END IF;

  UPDATE ledger_account SET balance = balance + p_amount WHERE id = p_to
  RETURNING balance INTO v_credit_balance;
  IF v_credit_balance IS NULL THEN
    RAISE EXCEPTION 'ledger account % not found', p_to;
  END IF;

  INSERT INTO ledger_entry (transfer_id, account_id, amount, balance_after)
  VALUES (v_id, p_from, -p_amount, v_debit_balance), (v_id, p_to, p_amount, v_credit_balance);

  RETURN QUERY SELECT v_id, false;
END;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION cometa_refuse_past_credit_limit() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('cometa.transfer_kind', true) = 'topup_reversal' THEN
    RETURN NEW;
  END IF;
  RAISE EXCEPTION 'insufficient funds in account %', NEW.id
    USING ERRCODE = 'CM001', DETAIL = NEW.credit_limit::text;
END;
$$;
--> statement-breakpoint
-- Receipts are never changed nor deleted once issued; their numbers never go back.
CREATE TRIGGER receipt_append_only BEFORE UPDATE OR DELETE ON "receipt"
  FOR EACH ROW EXECUTE FUNCTION cometa_refuse_change();
--> statement-breakpoint
CREATE TRIGGER receipt_counter_no_delete BEFORE DELETE ON "receipt_counter"
  FOR EACH ROW EXECUTE FUNCTION cometa_refuse_change();
--> statement-breakpoint
INSERT INTO "payment_settings" ("id") VALUES (1) ON CONFLICT DO NOTHING;
