-- The audit log is append-only (0002 refuses UPDATE and DELETE row by row); TRUNCATE skips row
-- triggers, so it is refused by a statement trigger too.
CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON audit_log
  FOR EACH STATEMENT EXECUTE FUNCTION cometa_refuse_change();
