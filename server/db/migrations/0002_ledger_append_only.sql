-- The ledger and the audit log are append-only: entries are never updated or deleted.
CREATE OR REPLACE FUNCTION cometa_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION '% is append-only', TG_TABLE_NAME USING ERRCODE = 'P0001';
END;
$$;
--> statement-breakpoint
CREATE TRIGGER ledger_transfer_append_only BEFORE UPDATE OR DELETE ON ledger_transfer
  FOR EACH ROW EXECUTE FUNCTION cometa_refuse_change();
--> statement-breakpoint
CREATE TRIGGER ledger_entry_append_only BEFORE UPDATE OR DELETE ON ledger_entry
  FOR EACH ROW EXECUTE FUNCTION cometa_refuse_change();
--> statement-breakpoint
CREATE TRIGGER audit_log_append_only BEFORE UPDATE OR DELETE ON audit_log
  FOR EACH ROW EXECUTE FUNCTION cometa_refuse_change();
--> statement-breakpoint
-- System accounts exist from the start.
INSERT INTO ledger_account (kind) VALUES
  ('funding:stripe'), ('funding:manual'), ('funding:voucher'), ('revenue'), ('adjustments')
ON CONFLICT DO NOTHING;
