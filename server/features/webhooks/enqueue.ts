import { and, eq, isNull } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { order } from '../../db/schema/catalogue';
import { webhookDelivery, webhookEndpoint } from '../../db/schema/reseller';
import { sendInTx } from '../../jobs/queue';
import { toOrderDto } from '../orders/order-dto';

/** Deliveries are given up (and the endpoint disabled) this long after the event. */
export const GIVE_UP_AFTER_SECONDS = 3 * 24 * 3600;

/**
 * Called in the transaction that changes an order's status: one delivery (and its job) per
 * active endpoint of the order's owner, with the order as the customer sees it.
 */
export async function queueOrderUpdate(tx: Tx, orderId: string, userId: string): Promise<void> {
  // Most customers have no endpoint: one indexed look-up, and the order is read only if needed.
  const endpoints = await tx
    .select({ id: webhookEndpoint.id })
    .from(webhookEndpoint)
    .where(
      and(
        eq(webhookEndpoint.userId, userId),
        eq(webhookEndpoint.state, 'active'),
        isNull(webhookEndpoint.deletedAt),
      ),
    );
  if (endpoints.length === 0) return;
  const [row] = await tx.select().from(order).where(eq(order.id, orderId));
  if (!row) return;
  const eventId = `evt_${crypto.randomUUID()}`;
  const body = JSON.stringify({
    id: eventId,
    type: 'order.updated',
    createdAt: new Date().toISOString(),
    data: toOrderDto(row),
  });
  const deliveries = await tx
    .insert(webhookDelivery)
    .values(
      endpoints.map((e) => ({
        endpointId: e.id,
        eventId,
        type: 'order.updated',
        orderId,
        body,
      })),
    )
    .returning({ id: webhookDelivery.id });
  for (const d of deliveries) await sendInTx(tx, 'webhook-deliver', { deliveryId: d.id });
}
