import { parseAmount, formatUsd } from '../../../shared/money';

/**
 * Saldo in dollars: success style above 0, warning style at 0, danger style below (a customer
 * on credit owes it; the minus sign says so in text too, docs/domain.md §3).
 */
const TONES = {
  success: 'bg-emerald-100 text-emerald-800',
  warning: 'bg-amber-100 text-amber-900',
  danger: 'bg-red-100 text-red-800',
};

export function Balance({
  amount,
  className = '',
}: {
  amount: string | null | undefined;
  className?: string;
}) {
  const cents = parseAmount(amount ?? '0') ?? 0n;
  const tone = cents > 0n ? 'success' : cents < 0n ? 'danger' : 'warning';
  return (
    <span
      data-tone={tone}
      className={`inline-flex items-center rounded-full px-2 py-0.5 text-xs font-semibold ${TONES[tone]} ${className}`}
    >
      Saldo: {formatUsd(cents)}
    </span>
  );
}
