-- A change to the figures of an order settled on a summarised day (or an order settled, inserted
-- or deleted on one) deletes that day's report_day row, and with it its summaries: the next
-- report reads the day from the orders and summarises it again (docs/decisions/0021).
-- Each touched day is first locked in shared mode (advisory lock 21021, days since 2000-01-01,
-- the smaller day first); summariseDays() takes the same locks exclusively before reading a
-- day's orders, so a change either commits before the day is read or reopens it after.
CREATE OR REPLACE FUNCTION order_report_day_reopen() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  d1 date;
  d2 date;
BEGIN
  IF TG_OP <> 'INSERT' AND OLD.settled_at IS NOT NULL THEN
    d1 := (OLD.settled_at AT TIME ZONE 'UTC')::date;
  END IF;
  IF TG_OP <> 'DELETE' AND NEW.settled_at IS NOT NULL THEN
    d2 := (NEW.settled_at AT TIME ZONE 'UTC')::date;
  END IF;
  IF d1 IS NULL OR d1 = d2 THEN
    d1 := d2;
    d2 := NULL;
  ELSIF d2 IS NOT NULL AND d2 < d1 THEN
    SELECT d2, d1 INTO d1, d2;
  END IF;
  PERFORM pg_advisory_xact_lock_shared(21021, d1 - date '2000-01-01');
  IF d2 IS NOT NULL THEN
    PERFORM pg_advisory_xact_lock_shared(21021, d2 - date '2000-01-01');
  END IF;
  DELETE FROM report_day WHERE day = d1 OR day = d2;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER order_report_day_reopen_update AFTER UPDATE ON "order" FOR EACH ROW
  WHEN ((OLD.settled_at IS NOT NULL OR NEW.settled_at IS NOT NULL) AND
        (OLD.settled_at, OLD.status, OLD.price, OLD.quantity, OLD.remains, OLD.cost,
         OLD.supplier_id, OLD.category, OLD.service_id, OLD.user_id)
        IS DISTINCT FROM
        (NEW.settled_at, NEW.status, NEW.price, NEW.quantity, NEW.remains, NEW.cost,
         NEW.supplier_id, NEW.category, NEW.service_id, NEW.user_id))
  EXECUTE FUNCTION order_report_day_reopen();
--> statement-breakpoint
CREATE TRIGGER order_report_day_reopen_insert AFTER INSERT ON "order" FOR EACH ROW
  WHEN (NEW.settled_at IS NOT NULL)
  EXECUTE FUNCTION order_report_day_reopen();
--> statement-breakpoint
CREATE TRIGGER order_report_day_reopen_delete AFTER DELETE ON "order" FOR EACH ROW
  WHEN (OLD.settled_at IS NOT NULL)
  EXECUTE FUNCTION order_report_day_reopen();
