import { and, eq, sql } from 'drizzle-orm';
import { formatAmount, parseAmount } from '../../../shared/money';
import type { CreditLimitResult, DebtorList } from '../../../shared/schemas/credit';
import { queryRows, type Db } from '../../db/client';
import { ledgerAccount, ledgerCreditLimit } from '../../db/schema/ledger';
import { AppError } from '../../lib/errors';
import { recordAudit } from '../audit/audit.service';
import { requireCustomer } from '../admin/customer.service';
import { customerAccounts, standing, type Standing } from '../ledger/ledger.service';

/** Four eyes, as for adjustments: nobody sets their own credit. */
const OWN_CREDIT = 'No puedes cambiar tu propio límite de crédito. Pide a otra persona del equipo.';

function credit(userId: string, b: Standing): CreditLimitResult {
  return {
    userId,
    creditLimit: formatAmount(b.creditLimit),
    available: formatAmount(b.available),
    spendable: formatAmount(b.spendable),
    debt: formatAmount(b.available < 0n ? -b.available : 0n),
  };
}

/** A customer's credit: limit, Saldo, what they can spend and what they owe. */
export async function getCredit(db: Db, userId: string): Promise<CreditLimitResult> {
  await requireCustomer(db, userId);
  return credit(userId, await standing(db, userId));
}

/**
 * Gives, changes or removes ("0.00") a customer's credit limit (docs/domain.md §3). Lowering it
 * below what they already owe is allowed: the debt stays, and new debits are refused until the
 * balance is back above minus the new limit. Under the account's row lock (the one every
 * transfer takes) the limit is written and its history row records the account's last entry,
 * so ledger:verify can tell which limit was in force for each debit. Audited, before → after.
 */
export async function setCreditLimit(
  db: Db,
  input: { actorId: string; userId: string; amount: string; ipAddress: string },
): Promise<CreditLimitResult> {
  if (input.userId === input.actorId) throw new AppError('FORBIDDEN', OWN_CREDIT);
  const cents = parseAmount(input.amount);
  if (cents === null || cents < 0n)
    throw new AppError('VALIDATION_FAILED', undefined, { amount: 'Escribe un límite válido.' });
  await requireCustomer(db, input.userId);
  return db.transaction(async (tx) => {
    const accounts = await customerAccounts(tx, input.userId);
    const [locked] = await queryRows<{ credit_limit: string; last_entry: string }>(
      tx,
      sql`SELECT credit_limit::text AS credit_limit,
                 (SELECT COALESCE(max(id), 0) FROM ledger_entry
                   WHERE account_id = ${accounts.available}::uuid)::text AS last_entry
            FROM ledger_account WHERE id = ${accounts.available}::uuid FOR NO KEY UPDATE`,
    );
    if (!locked) throw new Error(`available account missing for ${input.userId}`);
    const before = BigInt(locked.credit_limit);
    if (before !== cents) {
      await tx
        .update(ledgerAccount)
        .set({ creditLimit: cents })
        .where(and(eq(ledgerAccount.id, accounts.available), eq(ledgerAccount.kind, 'available')));
      await tx.insert(ledgerCreditLimit).values({
        accountId: accounts.available,
        creditLimit: cents,
        afterEntryId: BigInt(locked.last_entry),
        actorId: input.actorId,
      });
    }
    const after = await standing(tx, input.userId);
    await recordAudit(tx, {
      actorId: input.actorId,
      action: 'credit.limit',
      targetType: 'user',
      targetId: input.userId,
      before: { creditLimit: formatAmount(before) },
      after: { creditLimit: formatAmount(cents), available: formatAmount(after.available) },
      ipAddress: input.ipAddress,
    });
    return credit(input.userId, after);
  });
}

/** Who owes what: every customer whose Saldo is below zero, largest debt first (at most 500). */
export async function listDebtors(db: Db): Promise<DebtorList> {
  const rows = await queryRows<{
    user_id: string;
    name: string | null;
    email: string;
    balance: string;
    credit_limit: string;
  }>(
    db,
    sql`SELECT u.id AS user_id, u.name, u.email, a.balance::text AS balance,
               a.credit_limit::text AS credit_limit
          FROM ledger_account a JOIN "user" u ON u.id = a.user_id
         WHERE a.kind = 'available' AND a.balance < 0
         ORDER BY a.balance ASC, u.id
         LIMIT 500`,
  );
  let total = 0n;
  const items = rows.map((r) => {
    const balance = BigInt(r.balance);
    const limit = BigInt(r.credit_limit);
    total += -balance;
    return {
      userId: r.user_id,
      name: r.name ?? '',
      email: r.email,
      available: formatAmount(balance),
      debt: formatAmount(-balance),
      creditLimit: formatAmount(limit),
      overLimit: -balance > limit,
    };
  });
  return { items, total: formatAmount(total) };
}
