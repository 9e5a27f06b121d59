import { parseAmount, formatUsd } from '../../../shared/money';

/** Saldo in dollars: success style above 0, warning style otherwise (docs/domain.md §2). */
export function Balance({
  amount,
  className = '',
}: {
  amount: string | null | undefined;
  className?: string;
}) {
  const cents = parseAmount(amount ?? '0') ?? 0n;
  const positive = cents > 0n;
  return (
    <span
      data-tone={positive ? 'success' : 'warning'}
      className={`inline-flex items-center rounded-full px-2 py-0.5 text-xs font-semibold ${
        positive ? 'bg-emerald-100 text-emerald-800' : 'bg-amber-100 text-amber-900'
      } ${className}`}
    >
      Saldo: {formatUsd(cents)}
    </span>
  );
}
