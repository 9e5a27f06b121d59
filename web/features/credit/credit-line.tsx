import { formatUsd, parseAmount } from '../../../shared/money';
import type { WalletDto } from '../../../shared/schemas/wallet';

/**
 * The customer's credit under their Saldo (docs/domain.md §3): what they owe (said in words, not
 * by colour alone), their limit and what they can still spend. Nothing without credit or debt.
 */
export function CreditLine({ wallet }: { wallet: WalletDto | null | undefined }) {
  if (!wallet) return null;
  const available = parseAmount(wallet.available) ?? 0n;
  const limit = parseAmount(wallet.creditLimit) ?? 0n;
  if (limit === 0n && available >= 0n) return null;
  return (
    <dl className="mt-2 grid gap-1 text-sm" data-testid="credit-line">
      {available < 0n ? (
        <div className="flex flex-wrap gap-x-1">
          <dt className="font-semibold text-red-800">Saldo negativo, debes:</dt>
          <dd className="font-semibold text-red-800 tabular-nums">{formatUsd(-available)}</dd>
        </div>
      ) : null}
      <div className="flex flex-wrap gap-x-1">
        <dt className="text-slate-600">Límite de crédito:</dt>
        <dd className="text-slate-900 tabular-nums">
          {limit > 0n ? formatUsd(limit) : 'sin crédito'}
        </dd>
      </div>
      <div className="flex flex-wrap gap-x-1">
        <dt className="text-slate-600">Disponible para gastar:</dt>
        <dd className="font-semibold text-slate-900 tabular-nums" data-testid="credit-spendable">
          {formatUsd(wallet.spendable)}
        </dd>
      </div>
    </dl>
  );
}
