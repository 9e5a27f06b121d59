-- One money movement as one statement: the steps the ledger service used to send one by one
-- (claim the idempotency key, lock both accounts in id order, guarded debit, credit, two entries)
-- run inside the database, so a transfer costs one round trip instead of five. It runs in the
-- caller's transaction and is the only code that writes balances.
-- Errors: CM001 insufficient funds (the debit would take a customer account below zero);
-- CM002 the idempotency key was already used for a different movement. The result columns are
-- named apart from every table column so no reference inside is ambiguous.
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

  UPDATE ledger_account SET balance = balance - p_amount
   WHERE id = p_from AND (user_id IS NULL OR balance >= p_amount)
  RETURNING balance INTO v_debit_balance;
  IF v_debit_balance IS NULL THEN
    RAISE EXCEPTION 'insufficient funds in account %', p_from USING ERRCODE = 'CM001';
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
-- The rest of placing an order, after the order row is inserted, as one statement: find (or
-- open) the customer's two accounts, hold the price (available → held) through cometa_transfer,
-- and record the first event. It answers whether the customer has an active webhook endpoint, so
-- the caller queues a delivery only then. Runs in the caller's transaction with the insert.
CREATE OR REPLACE FUNCTION cometa_hold_order(
  p_order_id uuid,
  p_user_id text,
  p_amount bigint,
  p_description text
) RETURNS TABLE (notify_webhooks boolean) LANGUAGE plpgsql AS $$
DECLARE
  v_available uuid;
  v_held uuid;
BEGIN
  FOR attempt IN 1..2 LOOP
    SELECT max(id::text) FILTER (WHERE kind = 'available')::uuid,
           max(id::text) FILTER (WHERE kind = 'held')::uuid
      INTO v_available, v_held
      FROM ledger_account WHERE user_id = p_user_id;
    EXIT WHEN v_available IS NOT NULL AND v_held IS NOT NULL;
    INSERT INTO ledger_account (user_id, kind)
    VALUES (p_user_id, 'available'), (p_user_id, 'held')
    ON CONFLICT DO NOTHING;
  END LOOP;
  IF v_available IS NULL OR v_held IS NULL THEN
    RAISE EXCEPTION 'customer accounts missing for %', p_user_id;
  END IF;

  PERFORM cometa_transfer('order_hold', v_available, v_held, p_amount, 'order', p_order_id::text,
                          'order:' || p_order_id || ':hold', p_description, p_user_id);

  INSERT INTO order_event (order_id, status, actor_id, actor_role)
  VALUES (p_order_id, 'pending', p_user_id, 'customer');

  RETURN QUERY SELECT EXISTS (
    SELECT 1 FROM webhook_endpoint
     WHERE user_id = p_user_id AND state = 'active' AND deleted_at IS NULL);
END;
$$;
