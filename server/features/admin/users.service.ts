import { and, asc, eq, ilike, or } from 'drizzle-orm';
import { formatAmount } from '../../../shared/money';
import {
  CUSTOMER_SEARCH_MAX_LENGTH,
  CUSTOMER_SEARCH_MIN_LENGTH,
  type CustomerSummary,
} from '../../../shared/schemas/admin';
import type { Db } from '../../db/client';
import { user } from '../../db/schema/auth';
import { ledgerAccount } from '../../db/schema/ledger';

/** Customers whose e-mail or name contains `q` (at most 20), with their available balance. */
export async function searchCustomers(db: Db, q: string): Promise<CustomerSummary[]> {
  const term = q.trim().slice(0, CUSTOMER_SEARCH_MAX_LENGTH);
  if (term.length < CUSTOMER_SEARCH_MIN_LENGTH) return [];
  const pattern = `%${term.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
  const rows = await db
    .select({
      id: user.id,
      name: user.name,
      email: user.email,
      role: user.role,
      emailVerified: user.emailVerified,
      balance: ledgerAccount.balance,
    })
    .from(user)
    .leftJoin(
      ledgerAccount,
      and(eq(ledgerAccount.userId, user.id), eq(ledgerAccount.kind, 'available')),
    )
    .where(or(ilike(user.email, pattern), ilike(user.name, pattern)))
    .orderBy(asc(user.email))
    .limit(20);
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    email: r.email,
    role: r.role,
    emailVerified: r.emailVerified,
    available: formatAmount(r.balance ?? 0n),
  }));
}
