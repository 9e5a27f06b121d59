import type { Tx } from '../../db/client';
import { orderDispatch } from '../../db/schema/suppliers';
import type { JobQueue } from '../../jobs/queue';

/**
 * Called in the transaction that places an order for a service bought from suppliers: writes the
 * order's dispatch row (`queued`) and its job, so both commit with the held money or not at all.
 * Without a queue (a script), the periodic sweep picks the row up.
 */
export async function enqueueDispatch(
  tx: Tx,
  jobs: JobQueue | null,
  orderId: string,
): Promise<true> {
  await tx.insert(orderDispatch).values({ orderId });
  await jobs?.send('supplier-dispatch', { orderId }, { tx });
  return true;
}
