-- Credit lines (docs/domain.md §3): a customer's 'available' account may be debited down to
-- minus its credit_limit, read on the row cometa_transfer already locks; 'held' and accounts
-- without a limit never go below zero. Only the guarded debit changes from migration 0010.
-- Errors: CM001 insufficient funds (the debit would take a customer account past its floor; the
-- DETAIL is the account's credit limit in cents, so the message can mention the credit);
-- CM002 the idempotency key was already used for a different movement.
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
  UPDATE ledger_account SET balance = balance - p_amount
   WHERE id = p_from AND (user_id IS NULL OR balance - p_amount >= -credit_limit)
  RETURNING balance INTO v_debit_balance;
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
-- The backstop of the guarded debit (the CHECK ledger_account_held_non_negative covers 'held'):
-- no update may lower a customer balance below minus the account's credit limit. A credit to a
-- balance that is below a lowered limit raises it and passes; so does changing the limit alone.
CREATE OR REPLACE FUNCTION cometa_refuse_past_credit_limit() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'insufficient funds in account %', NEW.id
    USING ERRCODE = 'CM001', DETAIL = NEW.credit_limit::text;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER ledger_account_credit_floor BEFORE UPDATE OF balance ON ledger_account
  FOR EACH ROW
  WHEN (NEW.user_id IS NOT NULL AND NEW.balance < OLD.balance AND NEW.balance < -NEW.credit_limit)
  EXECUTE FUNCTION cometa_refuse_past_credit_limit();
--> statement-breakpoint
-- The history of credit limits is append-only, like the ledger it is checked against.
CREATE TRIGGER ledger_credit_limit_append_only BEFORE UPDATE OR DELETE ON ledger_credit_limit
  FOR EACH ROW EXECUTE FUNCTION cometa_refuse_change();
