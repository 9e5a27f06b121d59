-- Orders finished before `order.settled_at` existed: settled when the ledger moved their money
-- (their last capture or release), so reports agree with the ledger; their supplier from the
-- forwarding. Their cost stays unknown (null).
UPDATE "order" o SET settled_at = COALESCE(
  (SELECT max(t.created_at) FROM ledger_transfer t
    WHERE t.reference_type = 'order' AND t.reference_id = o.id::text
      AND t.kind IN ('order_capture', 'order_release')),
  o.updated_at)
WHERE o.status IN ('completed', 'partial', 'rejected', 'cancelled') AND o.settled_at IS NULL;
--> statement-breakpoint
UPDATE "order" o SET supplier_id = d.supplier_id
FROM order_dispatch d
WHERE d.order_id = o.id AND o.supplier_id IS NULL AND d.supplier_id IS NOT NULL;
