import type { AdminService } from './types';

/**
 * Next to a stock service's name in the list: how many items are left («Stock: 12»), «Agotado»
 * when orders are refused, or that orders go to its suppliers while it has none.
 */
export function StockBadge({
  service,
  available,
}: {
  service: AdminService;
  /** Items available now; undefined when the count could not be read. */
  available: number | undefined;
}) {
  if (service.delivery !== 'stock') return null;
  const tone =
    service.stock === 'out'
      ? 'bg-red-100 text-red-800'
      : available === 0
        ? 'bg-amber-100 text-amber-900'
        : 'bg-emerald-100 text-emerald-800';
  const text =
    service.stock === 'out'
      ? 'Agotado'
      : available === undefined
        ? 'Desde stock'
        : available === 0
          ? 'Sin stock: va a proveedores'
          : `Stock: ${available.toLocaleString('es-MX')}`;
  return (
    <span
      className={`ml-1.5 inline-flex items-center rounded-full px-2 py-px text-xs font-semibold whitespace-nowrap ${tone}`}
      data-testid="service-stock"
    >
      {text}
    </span>
  );
}
