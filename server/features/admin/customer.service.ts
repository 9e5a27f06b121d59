import { recordAudit } from '../audit/audit.service';
import { desc, eq } from 'drizzle-orm';
import { sql } from 'drizzle-orm';
import { formatAmount } from '../../../shared/money';
import type { CustomerDetail, CustomerNote } from '../../../shared/schemas/admin';
import { queryRows, type Db } from '../../db/client';
import { user } from '../../db/schema/auth';
import { customerNote } from '../../db/schema/notes';
import { AppError } from '../../lib/errors';

const NOT_FOUND = 'El cliente no existe.';

type DetailRow = {
  id: string;
  name: string;
  email: string;
  role: string;
  email_verified: boolean;
  blocked: boolean;
  two_factor: boolean;
  balance_text: string;
  held_text: string;
  credit_limit_text: string;
  spend_text: string;
  orders: number | string;
  last_order_at: string | Date | null;
  sessions: number | string;
  last_sign_in_at: string | Date | null;
  created_at: string | Date;
};

const iso = (value: string | Date) => new Date(value).toISOString();

/** GET /api/admin/users/:id: the customer page's header (deleted accounts answer 404). */
export async function getCustomer(db: Db, userId: string): Promise<CustomerDetail> {
  const [row] = await queryRows<DetailRow>(
    db,
    sql`
    SELECT u.id, u.name, u.email, u.role, u.email_verified,
      (u.banned IS TRUE AND (u.ban_expires IS NULL OR u.ban_expires > now())) AS blocked,
      COALESCE(u.two_factor_enabled, false) AS two_factor,
      COALESCE(av.balance, 0)::text AS balance_text,
      COALESCE(held.balance, 0)::text AS held_text,
      COALESCE(av.credit_limit, 0)::text AS credit_limit_text,
      COALESCE((
        SELECT -sum(e.amount) FROM ledger_entry e
        JOIN ledger_transfer t ON t.id = e.transfer_id
        WHERE e.account_id = held.id AND t.kind = 'order_capture'
      ), 0)::text AS spend_text,
      (SELECT count(*) FROM "order" o WHERE o.user_id = u.id)::int AS orders,
      (SELECT max(o.created_at) FROM "order" o WHERE o.user_id = u.id) AS last_order_at,
      (SELECT count(*) FROM session s WHERE s.user_id = u.id AND s.expires_at > now())::int
        AS sessions,
      (SELECT max(s.created_at) FROM session s WHERE s.user_id = u.id) AS last_sign_in_at,
      u.created_at
    FROM "user" u
    LEFT JOIN ledger_account av ON av.user_id = u.id AND av.kind = 'available'
    LEFT JOIN ledger_account held ON held.user_id = u.id AND held.kind = 'held'
    WHERE u.id = ${userId} AND u.deleted_at IS NULL`,
  );
  if (!row) throw new AppError('NOT_FOUND', NOT_FOUND);
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    role: row.role,
    emailVerified: row.email_verified,
    blocked: row.blocked,
    twoFactorEnabled: row.two_factor,
    balance: formatAmount(BigInt(row.balance_text)),
    held: formatAmount(BigInt(row.held_text)),
    creditLimit: formatAmount(BigInt(row.credit_limit_text)),
    spend: formatAmount(BigInt(row.spend_text)),
    orders: Number(row.orders),
    lastOrderAt: row.last_order_at ? iso(row.last_order_at) : null,
    sessions: Number(row.sessions),
    lastSignInAt: row.last_sign_in_at ? iso(row.last_sign_in_at) : null,
    createdAt: iso(row.created_at),
  };
}

/** 404 unless the account exists (and is not deleted): the per-tab endpoints check it first. */
export async function requireCustomer(db: Db, userId: string): Promise<void> {
  const [row] = await db
    .select({ id: user.id, deletedAt: user.deletedAt })
    .from(user)
    .where(eq(user.id, userId));
  if (!row || row.deletedAt) throw new AppError('NOT_FOUND', NOT_FOUND);
}

/** The admins' notes on a customer, newest first (the last 200). */
export async function listNotes(db: Db, userId: string): Promise<CustomerNote[]> {
  await requireCustomer(db, userId);
  const rows = await db
    .select({
      id: customerNote.id,
      body: customerNote.body,
      authorName: user.name,
      createdAt: customerNote.createdAt,
    })
    .from(customerNote)
    .leftJoin(user, eq(user.id, customerNote.authorId))
    .where(eq(customerNote.userId, userId))
    .orderBy(desc(customerNote.createdAt), desc(customerNote.id))
    .limit(200);
  return rows.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() }));
}

/** An admin writes a note on a customer. */
export async function addNote(
  db: Db,
  input: { adminId: string; userId: string; body: string; ipAddress?: string | null },
): Promise<CustomerNote> {
  await requireCustomer(db, input.userId);
  const row = await db.transaction(async (tx) => {
    const [saved] = await tx
      .insert(customerNote)
      .values({ userId: input.userId, authorId: input.adminId, body: input.body })
      .returning();
    if (!saved) throw new Error('The note was not saved.');
    await recordAudit(tx, {
      actorId: input.adminId,
      action: 'user.note',
      targetType: 'user',
      targetId: input.userId,
      after: { noteId: saved.id, body: saved.body },
      ipAddress: input.ipAddress ?? null,
    });
    return saved;
  });
  const [author] = await db
    .select({ name: user.name })
    .from(user)
    .where(eq(user.id, input.adminId));
  return {
    id: row.id,
    body: row.body,
    authorName: author?.name ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}
