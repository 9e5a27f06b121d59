// Orders delivered from stock, as staff see them (issue 24). Pure, unit-tested.
import type { AdminOrderDto } from '../../../shared/schemas/suppliers';

/** How staff see an item delivered from stock: «••••» and its last 4 characters (or fewer). */
const MASKED_ITEM = /^••••.{0,4}$/u;

/**
 * An order delivered from stock: handled by no supplier, its result masked. The order DTO
 * carries no flag for it; the server masks the result of such orders only, for every member of
 * staff (server/features/orders/order-dto.ts `visibleResult`).
 */
export function isStockOrder(order: Pick<AdminOrderDto, 'dispatch' | 'result'>): boolean {
  return order.dispatch === null && order.result !== null && MASKED_ITEM.test(order.result);
}
