import { eq } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { orderDispatch, serviceRoute } from '../../db/schema/suppliers';
import type { JobQueue } from '../../jobs/queue';

/**
 * Called in the transaction that places an order: when its service is bought from suppliers,
 * writes the order's dispatch row (`queued`) and its job, so both commit with the held money
 * or not at all. Without a queue (a script), the periodic sweep picks the row up.
 */
export async function enqueueDispatchIfRouted(
  tx: Tx,
  jobs: JobQueue | null,
  orderId: string,
  serviceId: string,
): Promise<boolean> {
  const [route] = await tx
    .select({ id: serviceRoute.id })
    .from(serviceRoute)
    .where(eq(serviceRoute.serviceId, serviceId))
    .limit(1);
  if (!route) return false;
  await tx.insert(orderDispatch).values({ orderId });
  await jobs?.send('supplier-dispatch', { orderId }, { tx });
  return true;
}
