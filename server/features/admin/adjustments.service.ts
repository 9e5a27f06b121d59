import { eq } from 'drizzle-orm';
import { formatAmount, parseAmount } from '../../../shared/money';
import type { Db } from '../../db/client';
import { user } from '../../db/schema/auth';
import { AppError } from '../../lib/errors';
import { recordAudit } from '../audit/audit.service';
import { balances, customerAccounts, systemAccount, transfer } from '../ledger/ledger.service';

/** Four eyes, as for manual payments (funds.service.ts): nobody corrects their own balance. */
const OWN_BALANCE = 'No puedes ajustar tu propio saldo. Pide a otro administrador que lo haga.';

/**
 * An admin's balance correction: one transfer against the adjustments account. A debit that
 * would take the balance below zero is refused (402). The admin and reason are audited.
 * `requestKey` makes a retried request (same key) move nothing the second time. An admin's own
 * balance is refused (403) before anything is read or written.
 */
export async function adjustBalance(
  db: Db,
  input: {
    adminId: string;
    userId: string;
    amount: string;
    reason: string;
    requestKey: string;
    ipAddress: string;
  },
): Promise<{ available: string; held: string; transferId: string; replayed: boolean }> {
  if (input.userId === input.adminId) throw new AppError('FORBIDDEN', OWN_BALANCE);
  const cents = parseAmount(input.amount);
  if (cents === null || cents === 0n)
    throw new AppError('VALIDATION_FAILED', undefined, { amount: 'Escribe un importe válido.' });
  const [target] = await db.select({ id: user.id }).from(user).where(eq(user.id, input.userId));
  if (!target) throw new AppError('NOT_FOUND', 'El cliente no existe.');
  return db.transaction(async (tx) => {
    const accounts = await customerAccounts(tx, input.userId);
    const adjustments = await systemAccount(tx, 'adjustments');
    const before = await balances(tx, input.userId);
    const credit = cents > 0n;
    const result = await transfer(tx, {
      from: credit ? adjustments : accounts.available,
      to: credit ? accounts.available : adjustments,
      amount: credit ? cents : -cents,
      kind: credit ? 'adjustment_credit' : 'adjustment_debit',
      reference: { type: 'adjustment', id: input.userId },
      idempotencyKey: `adjustment:${input.adminId}:${input.requestKey}`,
      description: `Ajuste de saldo: ${input.reason}`,
      actorId: input.adminId,
    });
    const after = await balances(tx, input.userId);
    if (!result.replayed) {
      await recordAudit(tx, {
        actorId: input.adminId,
        action: 'balance.adjust',
        targetType: 'user',
        targetId: input.userId,
        before: { available: formatAmount(before.available) },
        after: {
          available: formatAmount(after.available),
          amount: input.amount,
          reason: input.reason,
          transferId: result.transferId,
        },
        ipAddress: input.ipAddress,
      });
    }
    return {
      available: formatAmount(after.available),
      held: formatAmount(after.held),
      transferId: result.transferId,
      replayed: result.replayed,
    };
  });
}
