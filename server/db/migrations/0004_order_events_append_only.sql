-- An order's history is never rewritten.
CREATE TRIGGER order_event_append_only BEFORE UPDATE OR DELETE ON order_event
  FOR EACH ROW EXECUTE FUNCTION cometa_refuse_change();
