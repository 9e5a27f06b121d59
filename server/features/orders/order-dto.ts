// An order as customers (and their webhooks) see it: never the supplier, its reference or cost.
import type { CategorySlug } from '../../../shared/categories';
import { formatAmount } from '../../../shared/money';
import {
  ORDER_SOURCE_LABELS,
  ORDER_SOURCES,
  ORDER_STATUS_LABELS,
  type OrderSourceName,
  type OrderDto,
  type OrderEventDto,
  type OrderStatus,
} from '../../../shared/schemas/orders';
import type { order } from '../../db/schema/catalogue';

export type OrderRow = typeof order.$inferSelect;

/** Who reads the order: its customer, or staff (who see an item from stock masked). */
export type OrderView = 'owner' | 'staff';

/**
 * The result as this reader may see it: an item delivered from stock reaches only the customer
 * who bought it; staff see «••••» and its last 4 characters (decision 0023).
 */
export function visibleResult(
  row: Pick<OrderRow, 'result' | 'fromStock'>,
  view: OrderView,
): string | null {
  if (!row.fromStock || view === 'owner' || row.result === null) return row.result;
  return `••••${[...row.result].slice(-4).join('')}`;
}

export function toOrderDto(
  row: OrderRow,
  events?: OrderEventDto[],
  view: OrderView = 'owner',
): OrderDto {
  const status = row.status as OrderStatus;
  return {
    id: row.id,
    number: row.number,
    serviceId: row.serviceId,
    serviceName: row.serviceName,
    category: row.category as CategorySlug,
    quantity: row.quantity,
    fields: row.fields,
    price: formatAmount(row.price),
    status,
    statusLabel: ORDER_STATUS_LABELS[status],
    result: visibleResult(row, view),
    rejectReason: row.rejectReason,
    cancellable: status === 'pending' && row.supplierRef === null,
    cancelRequested: row.cancelRequestedAt !== null,
    runs: row.runs,
    runInterval: row.runInterval,
    startCount: row.startCount,
    remains: row.remains,
    source: ORDER_SOURCES.includes(row.source as OrderSourceName)
      ? (row.source as OrderSourceName)
      : 'web',
    sourceLabel: ORDER_SOURCE_LABELS[row.source as OrderSourceName] ?? 'Web',
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    ...(events ? { events } : {}),
  };
}
