import { eq, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { user } from '../../db/schema/auth';
import { paymentSettings, receipt, receiptCounter } from '../../db/schema/payments';

/** R-2026-000123: the year and a six-digit (or longer) sequence. */
export function receiptNumber(year: number, seq: number): string {
  return `R-${year}-${String(seq).padStart(6, '0')}`;
}

/**
 * The next number of `year`, taken inside the crediting transaction: the counter's row lock
 * orders concurrent credits, and a rolled-back credit rolls its number back too, so the numbers
 * of a year have no gaps.
 */
async function nextSeq(tx: Tx, year: number): Promise<number> {
  const [row] = await tx
    .insert(receiptCounter)
    .values({ year, last: 1 })
    .onConflictDoUpdate({
      target: receiptCounter.year,
      set: { last: sql`${receiptCounter.last} + 1` },
    })
    .returning({ last: receiptCounter.last });
  if (!row) throw new Error('receipt counter returned no row');
  return row.last;
}

export type IssueReceiptInput = {
  paymentId: string;
  transferId: string;
  userId: string;
  method: string;
  amount: bigint;
  fee: bigint;
  chargedAmount: bigint | null;
  chargedCurrency: string | null;
  description: string;
};

/**
 * Issues the receipt of one credit (docs/domain.md "Receipts"), in the transaction that credits
 * it: the number, and the shop's and the customer's details as they are now. The year is the
 * UTC year of the credit.
 */
export async function issueReceipt(
  tx: Tx,
  input: IssueReceiptInput,
): Promise<{ id: string; number: string }> {
  const year = new Date().getUTCFullYear();
  const seq = await nextSeq(tx, year);
  const number = receiptNumber(year, seq);
  const [shop] = await tx.select().from(paymentSettings).where(eq(paymentSettings.id, 1));
  const [customer] = await tx
    .select({ name: user.name, email: user.email })
    .from(user)
    .where(eq(user.id, input.userId));
  const [row] = await tx
    .insert(receipt)
    .values({
      number,
      year,
      seq,
      paymentId: input.paymentId,
      transferId: input.transferId,
      userId: input.userId,
      method: input.method,
      amount: input.amount,
      fee: input.fee,
      chargedAmount: input.chargedAmount,
      chargedCurrency: input.chargedCurrency,
      description: input.description,
      customer: { name: customer?.name ?? '', email: customer?.email ?? '' },
      shop: {
        name: shop?.shopName ?? '',
        taxId: shop?.shopTaxId ?? '',
        address: shop?.shopAddress ?? '',
      },
    })
    .returning({ id: receipt.id, number: receipt.number });
  if (!row) throw new Error('receipt insert returned no row');
  return row;
}
