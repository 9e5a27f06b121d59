// What customers see of a service delivered from stock (never how many items are left):
// «Entrega inmediata» while an order can be delivered (from stock, or by a supplier when the
// stock ran out), «Agotado» when orders are refused.
import type { ServiceDto } from '../../../shared/schemas/catalogue';
import { OUT_OF_STOCK_MESSAGE, STOCK_AVAILABILITY_LABELS } from '../../../shared/schemas/stock';

/** The stock service cannot be ordered now. */
export function isSoldOut(service: Pick<ServiceDto, 'stock'>): boolean {
  return service.stock === 'out';
}

/** Why the order button is disabled (the API's own words). */
export const SOLD_OUT_REASON = OUT_OF_STOCK_MESSAGE;

/** The small label beside a stock service's name and price; nothing for other services. */
export function AvailabilityBadge({ service }: { service: Pick<ServiceDto, 'stock'> }) {
  if (service.stock === null) return null;
  const out = service.stock === 'out';
  return (
    <span
      className={`inline-flex items-center rounded-full px-2 py-px text-xs font-semibold whitespace-nowrap ${
        out ? 'bg-red-100 text-red-800' : 'bg-emerald-100 text-emerald-800'
      }`}
      data-testid="service-availability"
    >
      {STOCK_AVAILABILITY_LABELS[service.stock]}
    </span>
  );
}
