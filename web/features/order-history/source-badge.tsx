import type { OrderDto } from '../../../shared/schemas/orders';

/** Whether the order came through one of the APIs (orders placed on the web say nothing). */
export function showsSource(order: Pick<OrderDto, 'source'>): boolean {
  return order.source !== 'web';
}

/**
 * "API DHRU", "API SMM" or "API" for an order placed through an API; nothing for a web order.
 * In a list, `labelled` adds "Origen:" for screen readers (the detail has its own label).
 */
export function SourceBadge({
  order,
  labelled = false,
}: {
  order: Pick<OrderDto, 'source' | 'sourceLabel'>;
  labelled?: boolean;
}) {
  if (!showsSource(order)) return null;
  return (
    <span
      className="inline-block rounded-full bg-indigo-100 px-2 py-0.5 text-xs font-semibold whitespace-nowrap text-indigo-900"
      data-testid="order-source"
    >
      {labelled ? <span className="sr-only">Origen: </span> : null}
      {order.sourceLabel}
    </span>
  );
}
