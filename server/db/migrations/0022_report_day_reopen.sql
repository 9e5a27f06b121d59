-- A change to the figures of an order settled on a summarised day (or an order settled, inserted
-- or deleted on one) deletes that day's report_day row, and with it its summaries: the next
-- report reads the day from the orders and summarises it again (docs/decisions/0021).
CREATE OR REPLACE FUNCTION order_report_day_reopen() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' AND OLD.settled_at IS NOT NULL THEN
    DELETE FROM report_day WHERE day = (OLD.settled_at AT TIME ZONE 'UTC')::date;
  END IF;
  IF TG_OP <> 'DELETE' AND NEW.settled_at IS NOT NULL THEN
    DELETE FROM report_day WHERE day = (NEW.settled_at AT TIME ZONE 'UTC')::date;
  END IF;
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
