// The account's security around Better Auth's sign-in methods: which ways in this instance
// offers, the person's sessions and linked methods, the export of their data, the deletion of
// their account, and the admin's view of a customer (sessions, block). docs/decisions/0014.
import { isStaffRole } from '../../../shared/roles';
import { and, asc, desc, eq, gt, inArray, isNull, ne, sql } from 'drizzle-orm';
import { formatAmount } from '../../../shared/money';
import type {
  AdminUserSecurity,
  LinkedMethod,
  SecurityOverview,
  SessionInfo,
  SignInMethods,
} from '../../../shared/schemas/security';
import type { Db } from '../../db/client';
import { account, session, user } from '../../db/schema/auth';
import { order } from '../../db/schema/catalogue';
import { orderFile } from '../../db/schema/files';
import { ledgerAccount, ledgerEntry, ledgerTransfer } from '../../db/schema/ledger';
import { payment, receipt } from '../../db/schema/payments';
import { apiKey, webhookEndpoint } from '../../db/schema/reseller';
import type { Env } from '../../env';
import { providerLabel } from '../../lib/auth';
import { deletePendingTokens, endTrustedDevices } from '../../lib/auth-records';
import { describeDevice } from '../../lib/devices';
import { AppError } from '../../lib/errors';
import { recordAudit } from '../audit/audit.service';
import { deleteTicketsOf, exportTicketsOf } from '../tickets/tickets.service';
import { forgetTelegramOf } from '../telegram/telegram.service';

/** The orders that still hold money or wait for a result. */
const IN_PROGRESS = ['pending', 'processing'];

export function signInMethods(env: Env): SignInMethods {
  return {
    password: true,
    emailLink: true,
    emailCode: true,
    phone: true,
    providers: [
      ...(env.google ? [{ id: 'google' as const, name: 'Google' }] : []),
      ...(env.oidc ? [{ id: 'oidc' as const, name: env.oidc.name }] : []),
    ],
    passkey: false,
  };
}

type SessionRow = typeof session.$inferSelect;

function toSessionInfo(row: SessionRow, currentId: string | null): SessionInfo {
  const d = describeDevice(row.userAgent, row.ipAddress);
  return {
    id: row.id,
    current: row.id === currentId,
    device: d.device,
    browser: d.browser,
    ip: d.ip,
    place: d.place,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.updatedAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
  };
}

/** The account's live sessions, the most recently used first. */
export async function listSessions(
  db: Db,
  userId: string,
  currentId: string | null,
): Promise<SessionInfo[]> {
  const rows = await db
    .select()
    .from(session)
    .where(and(eq(session.userId, userId), gt(session.expiresAt, new Date())))
    .orderBy(desc(session.updatedAt));
  return rows.map((r) => toSessionInfo(r, currentId));
}

/** Ends one of the account's sessions (at once: every request reads the session row). */
export async function endSession(db: Db, userId: string, sessionId: string): Promise<void> {
  const ended = await db
    .delete(session)
    .where(and(eq(session.id, sessionId), eq(session.userId, userId)))
    .returning({ id: session.id });
  if (ended.length === 0) throw new AppError('NOT_FOUND', 'Esa sesión ya no está activa.');
}

/**
 * Ends every session of the account but `keepId` (all of them when null), and its trusted
 * devices: signing in again on one of those browsers asks for the second factor.
 */
export async function endOtherSessions(
  db: Db,
  userId: string,
  keepId: string | null,
  /** A member of staff ending someone else's sessions: audited in the same transaction. */
  byStaff?: { actorId: string; ipAddress: string | null },
): Promise<number> {
  return db.transaction(async (tx) => {
    const ended = await tx
      .delete(session)
      .where(and(eq(session.userId, userId), keepId ? ne(session.id, keepId) : undefined))
      .returning({ id: session.id });
    await endTrustedDevices(tx, userId);
    if (byStaff)
      await recordAudit(tx, {
        actorId: byStaff.actorId,
        action: 'user.sessions_end',
        targetType: 'user',
        targetId: userId,
        after: { ended: ended.length },
        ipAddress: byStaff.ipAddress,
      });
    return ended.length;
  });
}

type UserRow = typeof user.$inferSelect;

async function methodsOf(db: Db, env: Env, u: UserRow): Promise<LinkedMethod[]> {
  const accounts = await db
    .select({ id: account.id, providerId: account.providerId, accountId: account.accountId })
    .from(account)
    .where(eq(account.userId, u.id))
    .orderBy(asc(account.createdAt));
  // The e-mail link and code always work for a verified address, so a provider or the
  // password can go as long as Better Auth keeps one account row (it refuses the last).
  const removable = accounts.length > 1;
  const methods: LinkedMethod[] = [
    { kind: 'email', label: u.email, accountId: null, removable: false },
  ];
  for (const a of accounts) {
    if (a.providerId === 'credential')
      methods.push({
        kind: 'credential',
        label: 'Contraseña',
        accountId: a.accountId,
        removable: false,
      });
    else if (a.providerId === 'google' || a.providerId === 'oidc')
      methods.push({
        kind: a.providerId,
        label: providerLabel(env, a.providerId),
        accountId: a.id,
        removable,
      });
  }
  if (u.phoneNumber && u.phoneNumberVerified)
    methods.push({ kind: 'phone', label: u.phoneNumber, accountId: null, removable: true });
  return methods;
}

async function userRow(db: Db, userId: string): Promise<UserRow> {
  const [row] = await db.select().from(user).where(eq(user.id, userId));
  if (!row || row.deletedAt) throw new AppError('NOT_FOUND', 'No encontramos esa cuenta.');
  return row;
}

export async function securityOverview(
  db: Db,
  env: Env,
  userId: string,
): Promise<SecurityOverview> {
  const u = await userRow(db, userId);
  const methods = await methodsOf(db, env, u);
  const linked = new Set(methods.map((m) => m.kind));
  return {
    email: u.email,
    hasPassword: linked.has('credential'),
    twoFactorEnabled: u.twoFactorEnabled === true,
    twoFactorRequired: isStaffRole(u.role),
    phoneNumber: u.phoneNumberVerified ? u.phoneNumber : null,
    phoneNumberVerified: u.phoneNumberVerified === true,
    methods,
    linkableProviders: signInMethods(env).providers.filter((p) => !linked.has(p.id)),
  };
}

/** Removes the verified phone (it no longer signs in). */
export async function removePhone(db: Db, userId: string): Promise<void> {
  await db
    .update(user)
    .set({ phoneNumber: null, phoneNumberVerified: false, updatedAt: new Date() })
    .where(eq(user.id, userId));
}

/** Everything the account holds about the person, as one JSON document (GDPR art. 15 and 20). */
export async function exportData(db: Db, userId: string) {
  const u = await userRow(db, userId);
  const accounts = await db
    .select({ providerId: account.providerId, createdAt: account.createdAt })
    .from(account)
    .where(eq(account.userId, userId));
  const sessions = await listSessions(db, userId, null);
  const orders = await db
    .select({
      number: order.number,
      createdAt: order.createdAt,
      updatedAt: order.updatedAt,
      category: order.category,
      serviceName: order.serviceName,
      quantity: order.quantity,
      fields: order.fields,
      price: order.price,
      status: order.status,
      result: order.result,
      rejectReason: order.rejectReason,
      source: order.source,
    })
    .from(order)
    .where(eq(order.userId, userId))
    .orderBy(asc(order.createdAt));
  const movements = await db
    .select({
      date: ledgerEntry.createdAt,
      account: ledgerAccount.kind,
      kind: ledgerTransfer.kind,
      description: ledgerTransfer.description,
      amount: ledgerEntry.amount,
      balanceAfter: ledgerEntry.balanceAfter,
    })
    .from(ledgerEntry)
    .innerJoin(ledgerAccount, eq(ledgerAccount.id, ledgerEntry.accountId))
    .innerJoin(ledgerTransfer, eq(ledgerTransfer.id, ledgerEntry.transferId))
    .where(eq(ledgerAccount.userId, userId))
    .orderBy(asc(ledgerEntry.id));
  const payments = await db
    .select({
      createdAt: payment.createdAt,
      method: payment.method,
      amount: payment.amount,
      fee: payment.fee,
      status: payment.status,
      reference: payment.reference,
      rejectReason: payment.rejectReason,
      note: payment.note,
    })
    .from(payment)
    .where(eq(payment.userId, userId))
    .orderBy(asc(payment.createdAt));
  // The numbered receipts of the customer's top-ups (PDFs downloaded from /addfunds).
  const receipts = await db
    .select({
      number: receipt.number,
      issuedAt: receipt.issuedAt,
      description: receipt.description,
      amount: receipt.amount,
      fee: receipt.fee,
    })
    .from(receipt)
    .where(eq(receipt.userId, userId))
    .orderBy(asc(receipt.issuedAt));
  const keys = await db
    .select({
      name: apiKey.name,
      prefix: apiKey.prefix,
      createdAt: apiKey.createdAt,
      lastUsedAt: apiKey.lastUsedAt,
      revokedAt: apiKey.revokedAt,
    })
    .from(apiKey)
    .where(eq(apiKey.userId, userId));
  const endpoints = await db
    .select({
      url: webhookEndpoint.url,
      state: webhookEndpoint.state,
      createdAt: webhookEndpoint.createdAt,
    })
    .from(webhookEndpoint)
    .where(and(eq(webhookEndpoint.userId, userId), isNull(webhookEndpoint.deletedAt)));
  const files = await db
    .select({
      name: orderFile.name,
      contentType: orderFile.contentType,
      size: orderFile.size,
      orderNumber: order.number,
      createdAt: orderFile.createdAt,
    })
    .from(orderFile)
    .leftJoin(order, eq(order.id, orderFile.orderId))
    .where(eq(orderFile.userId, userId))
    .orderBy(asc(orderFile.createdAt));
  return {
    exportedAt: new Date().toISOString(),
    currency: 'USD',
    profile: {
      id: u.id,
      name: u.name,
      email: u.email,
      emailVerified: u.emailVerified,
      phoneNumber: u.phoneNumberVerified ? u.phoneNumber : null,
      role: u.role,
      twoFactorEnabled: u.twoFactorEnabled === true,
      createdAt: u.createdAt.toISOString(),
    },
    signInMethods: accounts.map((a) => ({
      provider: a.providerId,
      linkedAt: a.createdAt.toISOString(),
    })),
    sessions,
    // The files given for orders, described (their bytes are downloaded from each order).
    files: files.map((f) => ({ ...f, createdAt: f.createdAt.toISOString() })),
    orders: orders.map((o) => ({
      ...o,
      price: formatAmount(o.price),
      createdAt: o.createdAt.toISOString(),
      updatedAt: o.updatedAt.toISOString(),
    })),
    movements: movements.map((m) => ({
      ...m,
      date: m.date.toISOString(),
      amount: formatAmount(m.amount),
      balanceAfter: formatAmount(m.balanceAfter),
    })),
    payments: payments.map((p) => ({
      ...p,
      amount: formatAmount(p.amount),
      fee: formatAmount(p.fee),
      createdAt: p.createdAt.toISOString(),
    })),
    receipts: receipts.map((r) => ({
      ...r,
      amount: formatAmount(r.amount),
      fee: formatAmount(r.fee),
      issuedAt: r.issuedAt.toISOString(),
    })),
    apiKeys: keys.map((k) => ({
      ...k,
      createdAt: k.createdAt.toISOString(),
      lastUsedAt: k.lastUsedAt?.toISOString() ?? null,
      revokedAt: k.revokedAt?.toISOString() ?? null,
    })),
    webhookEndpoints: endpoints.map((e) => ({ ...e, createdAt: e.createdAt.toISOString() })),
    // Support tickets with their public messages (files described; downloaded from each ticket).
    tickets: await exportTicketsOf(db, userId),
  };
}

/**
 * Deletes the account as the law allows: personal data erased or anonymised, while the orders,
 * payments and ledger entries stay (anonymised through the account row) as accounting records.
 * Only with nothing available or held and no order in progress. Checked and written in one
 * transaction, with the account's ledger rows locked so no credit or order slips in between.
 */
export async function deleteAccount(
  db: Db,
  userId: string,
  context: { ip: string | null },
): Promise<{ email: string; name: string }> {
  return db.transaction(async (tx) => {
    const [u] = await tx.select().from(user).where(eq(user.id, userId)).for('update');
    if (!u || u.deletedAt) throw new AppError('NOT_FOUND', 'No encontramos esa cuenta.');
    const balances = await tx
      .select({ kind: ledgerAccount.kind, balance: ledgerAccount.balance })
      .from(ledgerAccount)
      .where(eq(ledgerAccount.userId, userId))
      .for('update');
    if (balances.some((b) => b.balance !== 0n)) throw new AppError('BALANCE_NOT_ZERO');
    const [busy] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(order)
      .where(and(eq(order.userId, userId), inArray(order.status, IN_PROGRESS)));
    if ((busy?.n ?? 0) > 0) throw new AppError('ORDERS_IN_PROGRESS');
    const now = new Date();
    await tx
      .update(user)
      .set({
        name: 'Cuenta eliminada',
        email: `eliminada-${u.id}@cuentas-eliminadas.invalid`,
        emailVerified: false,
        image: null,
        phoneNumber: null,
        phoneNumberVerified: false,
        twoFactorEnabled: false,
        banned: true,
        banReason: 'Cuenta eliminada por su titular',
        banExpires: null,
        deletedAt: now,
        updatedAt: now,
      })
      .where(eq(user.id, userId));
    // Sign-in methods, sessions, devices and the second factor go with the person, and so does
    // every link or code still pending (a reset link would recreate a password login).
    await deletePendingTokens(tx, { id: u.id, email: u.email, phoneNumber: u.phoneNumber });
    await tx.delete(session).where(eq(session.userId, userId));
    await tx.delete(account).where(eq(account.userId, userId));
    await tx.execute(sql`DELETE FROM two_factor WHERE user_id = ${userId}`);
    await tx.execute(sql`DELETE FROM known_device WHERE user_id = ${userId}`);
    // Files given for orders are the person's own data: they go too (the orders stay, as records).
    await tx.delete(orderFile).where(eq(orderFile.userId, userId));
    // So do support tickets, with their messages and files.
    await deleteTicketsOf(tx, userId);
    // And their Telegram chat, choices and messages (a send job left finds nothing to send).
    await forgetTelegramOf(tx, userId);
    await tx
      .update(apiKey)
      .set({ revokedAt: now })
      .where(and(eq(apiKey.userId, userId), isNull(apiKey.revokedAt)));
    await tx
      .update(webhookEndpoint)
      .set({
        deletedAt: now,
        state: 'disabled',
        disabledAt: now,
        disabledReason: 'Cuenta eliminada',
      })
      .where(and(eq(webhookEndpoint.userId, userId), isNull(webhookEndpoint.deletedAt)));
    await recordAudit(tx, {
      actorId: userId,
      action: 'account.deleted',
      targetType: 'user',
      targetId: userId,
      ipAddress: context.ip,
    });
    return { email: u.email, name: u.name };
  });
}

export async function adminUserSecurity(
  db: Db,
  env: Env,
  userId: string,
): Promise<AdminUserSecurity> {
  const u = await userRow(db, userId);
  return {
    id: u.id,
    name: u.name,
    email: u.email,
    role: isStaffRole(u.role) ? u.role : 'customer',
    blocked: u.banned === true && (!u.banExpires || u.banExpires > new Date()),
    blockReason: u.banned ? (u.banReason ?? null) : null,
    twoFactorEnabled: u.twoFactorEnabled === true,
    methods: await methodsOf(db, env, u),
    sessions: await listSessions(db, userId, null),
  };
}

/** Blocks (or unblocks) an account; blocking ends its sessions, and its API keys stop working. */
export async function setBlocked(
  db: Db,
  args: { adminId: string; userId: string; blocked: boolean; reason: string | null; ip: string },
): Promise<void> {
  if (args.adminId === args.userId)
    throw new AppError('FORBIDDEN', 'No puedes bloquear tu propia cuenta.');
  await db.transaction(async (tx) => {
    const [u] = await tx.select().from(user).where(eq(user.id, args.userId)).for('update');
    if (!u || u.deletedAt) throw new AppError('NOT_FOUND', 'No encontramos esa cuenta.');
    await tx
      .update(user)
      .set({
        banned: args.blocked,
        banReason: args.blocked ? args.reason : null,
        banExpires: null,
        updatedAt: new Date(),
      })
      .where(eq(user.id, args.userId));
    if (args.blocked) {
      await tx.delete(session).where(eq(session.userId, args.userId));
      await endTrustedDevices(tx, args.userId);
    }
    await recordAudit(tx, {
      actorId: args.adminId,
      action: args.blocked ? 'user.blocked' : 'user.unblocked',
      targetType: 'user',
      targetId: args.userId,
      before: { banned: u.banned === true },
      after: { banned: args.blocked, reason: args.reason },
      ipAddress: args.ip,
    });
  });
}
