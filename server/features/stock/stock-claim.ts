// Taking an item from stock for an order, inside the transaction that places it (decision 0023).
import { sql } from 'drizzle-orm';
import { queryRows, type Tx } from '../../db/client';
import { AppError } from '../../lib/errors';
import { queueNotification } from '../notifications/events';
import { openItem, type StockKeys } from './stock-crypto';

/**
 * Marks the oldest available item of the service sold to the order and returns its text; null
 * when none is available. `FOR UPDATE SKIP LOCKED`: concurrent orders (on any instance) each
 * lock a different row, and a row taken by a transaction that commits is no longer 'available'
 * for the next; the partial unique index `stock_item_sold_order_uq` and the row's own
 * `order_id` make one item belong to one order at most.
 */
export async function claimItem(
  tx: Tx,
  keys: StockKeys,
  serviceId: string,
  orderId: string,
): Promise<{ id: string; text: string } | null> {
  const [row] = await queryRows<{ id: string; sealed: string }>(
    tx,
    sql`UPDATE stock_item SET state = 'sold', order_id = ${orderId}::uuid, sold_at = now()
        WHERE id = (
          SELECT id FROM stock_item
          WHERE service_id = ${serviceId}::uuid AND state = 'available'
          ORDER BY position
          LIMIT 1
          FOR UPDATE SKIP LOCKED
        )
        RETURNING id, sealed`,
  );
  if (!row) return null;
  const text = openItem(keys, row.id, row.sealed);
  // An item sealed under another AUTH_SECRET cannot be delivered: the order is refused (the
  // transaction rolls back, the item stays available) rather than sold without its item.
  if (text === null)
    throw new AppError(
      'INTERNAL',
      'No se pudo leer el artículo del stock. Avisa al administrador de la tienda.',
    );
  return { id: row.id, text };
}

/**
 * After a sale: when the available items are at or below the service's threshold and the
 * alert was not sent for this crossing, marks it sent (a conditional update: once, whoever
 * gets there first) and queues the `stock.low` event; true when the caller should e-mail the
 * admins after commit. Counting stops at threshold + 1, so a large stock costs nothing.
 */
export async function checkLowStock(tx: Tx, serviceId: string): Promise<boolean> {
  const [low] = await queryRows<{ low: boolean }>(
    tx,
    sql`SELECT (SELECT count(*) FROM (
              SELECT 1 FROM stock_item i
              WHERE i.service_id = s.id AND i.state = 'available'
              LIMIT s.low_stock_threshold + 1) a) <= s.low_stock_threshold AS low
        FROM service s WHERE s.id = ${serviceId}::uuid AND NOT s.low_stock_alerted`,
  );
  if (!low?.low) return false;
  const marked = await queryRows<{ id: string }>(
    tx,
    sql`UPDATE service SET low_stock_alerted = true
        WHERE id = ${serviceId}::uuid AND NOT low_stock_alerted RETURNING id`,
  );
  if (marked.length === 0) return false;
  await queueNotification(tx, { kind: 'stock.low', serviceId });
  return true;
}

/** The order's sold item becomes 'bad' (kept with its order); its last 4 characters, or null. */
export async function markSoldItemBad(tx: Tx, orderId: string): Promise<string | null> {
  const [row] = await queryRows<{ last4: string }>(
    tx,
    sql`UPDATE stock_item SET state = 'bad'
        WHERE order_id = ${orderId}::uuid AND state = 'sold' RETURNING last4`,
  );
  return row?.last4 ?? null;
}
