import { ORDER_STATUS_LABELS, type OrderStatus } from '../../../shared/schemas/orders';

const TONES: Record<OrderStatus, string> = {
  pending: 'bg-amber-100 text-amber-900',
  processing: 'bg-blue-100 text-blue-900',
  completed: 'bg-emerald-100 text-emerald-800',
  rejected: 'bg-red-100 text-red-800',
  cancelled: 'bg-slate-200 text-slate-800',
  partial: 'bg-purple-100 text-purple-900',
};

/** `compact`: one line of small text tall, for the rows of a list on a phone. */
export function StatusBadge({
  status,
  compact = false,
}: {
  status: OrderStatus;
  compact?: boolean;
}) {
  return (
    <span
      className={`inline-block rounded-full px-2.5 text-xs font-semibold whitespace-nowrap ${compact ? 'py-0.5' : 'py-1'} ${TONES[status]}`}
    >
      {ORDER_STATUS_LABELS[status]}
    </span>
  );
}
