import { isStaffRole } from '../../../shared/roles';
import { and, eq } from 'drizzle-orm';
import { formatAmount } from '../../../shared/money';
import type { UpdateProfile } from '../../../shared/schemas/auth';
import type { Me } from '../../../shared/schemas/me';
import type { Db } from '../../db/client';
import { user } from '../../db/schema/auth';
import { ledgerAccount } from '../../db/schema/ledger';
import type { SessionUser } from '../../lib/http';
import { myPriceGroup } from '../price-groups/price-groups.service';
import { unreadTicketsFor } from '../tickets/tickets.service';

/** The signed-in customer as the header shows it: name, role and available balance (Saldo). */
export async function getMe(db: Db, sessionUser: SessionUser): Promise<Me> {
  const [row] = await db
    .select({ balance: ledgerAccount.balance })
    .from(ledgerAccount)
    .where(and(eq(ledgerAccount.userId, sessionUser.id), eq(ledgerAccount.kind, 'available')));
  return {
    id: sessionUser.id,
    name: sessionUser.name,
    email: sessionUser.email,
    emailVerified: sessionUser.emailVerified,
    role: isStaffRole(sessionUser.role) ? sessionUser.role : 'customer',
    // A customer with no wallet account yet has a balance of 0 (docs/domain.md §2).
    balance: formatAmount(row?.balance ?? 0n),
    twoFactorEnabled: sessionUser.twoFactorEnabled,
    priceGroup: await myPriceGroup(db, sessionUser.id),
    unreadTickets: await unreadTicketsFor(db, {
      id: sessionUser.id,
      role: isStaffRole(sessionUser.role) ? sessionUser.role : 'customer',
    }),
  };
}

export async function updateProfile(
  db: Db,
  sessionUser: SessionUser,
  input: UpdateProfile,
): Promise<Me> {
  await db
    .update(user)
    .set({ name: input.name, updatedAt: new Date() })
    .where(eq(user.id, sessionUser.id));
  return getMe(db, { ...sessionUser, name: input.name });
}
