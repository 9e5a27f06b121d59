import { and, desc, eq, lt } from 'drizzle-orm';
import type { PaymentDto } from '../../../shared/schemas/wallet';
import { payment, receipt } from '../../db/schema/payments';
import { toPaymentDto } from '../payments/payments.service';
import { formatAmount } from '../../../shared/money';
import type { MovementsPage, WalletDto } from '../../../shared/schemas/wallet';
import type { Db } from '../../db/client';
import { ledgerAccount, ledgerEntry, ledgerTransfer } from '../../db/schema/ledger';
import { AppError } from '../../lib/errors';
import { standing } from '../ledger/ledger.service';

export const MOVEMENTS_PAGE_SIZE = 20;

export async function getWallet(db: Db, userId: string): Promise<WalletDto> {
  const b = await standing(db, userId);
  return {
    available: formatAmount(b.available),
    held: formatAmount(b.held),
    creditLimit: formatAmount(b.creditLimit),
    spendable: formatAmount(b.spendable),
    currency: 'USD',
  };
}

/** The statement of the customer's available balance, newest first, keyset-paginated by entry id. */
export async function listMovements(
  db: Db,
  userId: string,
  cursor: string | undefined,
): Promise<MovementsPage> {
  let before: bigint | undefined;
  if (cursor !== undefined) {
    if (!/^\d{1,19}$/.test(cursor))
      throw new AppError('BAD_REQUEST', 'El cursor de la página no es válido.');
    before = BigInt(cursor);
  }
  const [account] = await db
    .select({ id: ledgerAccount.id })
    .from(ledgerAccount)
    .where(and(eq(ledgerAccount.userId, userId), eq(ledgerAccount.kind, 'available')));
  if (!account) return { items: [], nextCursor: null };
  const rows = await db
    .select({
      id: ledgerEntry.id,
      amount: ledgerEntry.amount,
      balanceAfter: ledgerEntry.balanceAfter,
      createdAt: ledgerEntry.createdAt,
      kind: ledgerTransfer.kind,
      description: ledgerTransfer.description,
      receiptId: receipt.id,
      receiptNumber: receipt.number,
    })
    .from(ledgerEntry)
    .innerJoin(ledgerTransfer, eq(ledgerTransfer.id, ledgerEntry.transferId))
    .leftJoin(receipt, eq(receipt.transferId, ledgerTransfer.id))
    .where(
      and(
        eq(ledgerEntry.accountId, account.id),
        before === undefined ? undefined : lt(ledgerEntry.id, before),
      ),
    )
    .orderBy(desc(ledgerEntry.id))
    .limit(MOVEMENTS_PAGE_SIZE + 1);
  const page = rows.slice(0, MOVEMENTS_PAGE_SIZE);
  return {
    items: page.map((r) => ({
      id: r.id.toString(),
      date: r.createdAt.toISOString(),
      kind: r.kind,
      description: r.description,
      amount: `${r.amount > 0n ? '+' : ''}${formatAmount(r.amount)}`,
      balanceAfter: formatAmount(r.balanceAfter),
      receipt: r.receiptId && r.receiptNumber ? { id: r.receiptId, number: r.receiptNumber } : null,
    })),
    nextCursor: rows.length > MOVEMENTS_PAGE_SIZE ? (page.at(-1)?.id.toString() ?? null) : null,
  };
}

/** The customer's top-ups of every method (card, manual, voucher), newest first. */
export async function listTopups(db: Db, userId: string, limit = 50): Promise<PaymentDto[]> {
  const rows = await db
    .select()
    .from(payment)
    .where(eq(payment.userId, userId))
    .orderBy(desc(payment.createdAt))
    .limit(limit);
  return Promise.all(rows.map((r) => toPaymentDto(db, r)));
}
