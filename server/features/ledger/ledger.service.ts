import { and, eq, isNull, sql } from 'drizzle-orm';
import { pgErrorCode, queryRows, type Db, type Tx } from '../../db/client';
import { ledgerAccount } from '../../db/schema/ledger';
import { AppError } from '../../lib/errors';

export const SYSTEM_ACCOUNTS = [
  'funding:stripe',
  'funding:manual',
  'funding:voucher',
  'funding:paypal',
  'funding:crypto',
  'funding:mercadopago',
  'revenue',
  'adjustments',
] as const;
export type SystemAccount = (typeof SYSTEM_ACCOUNTS)[number];
export type CustomerAccountKind = 'available' | 'held';

export type TransferKind =
  | 'topup_stripe'
  | 'topup_manual'
  | 'topup_voucher'
  | 'topup_paypal'
  | 'topup_crypto'
  | 'topup_mercadopago'
  /** A credited top-up refunded or charged back: available → funding, may go below zero. */
  | 'topup_reversal'
  | 'adjustment_credit'
  | 'adjustment_debit'
  | 'order_hold'
  | 'order_capture'
  | 'order_release'
  /** A completed order delivered from stock, refunded (revenue → available; decision 0023). */
  | 'order_refund';

export type TransferInput = {
  from: string;
  to: string;
  amount: bigint;
  kind: TransferKind;
  reference: { type: string; id: string };
  /** Unique per movement: a replay with the same key moves nothing and returns the first transfer. */
  idempotencyKey: string;
  /** Spanish, shown to the customer in the statement. */
  description: string;
  actorId?: string | null;
};

export type TransferResult = {
  transferId: string;
  replayed: boolean;
};

/** The customer's two accounts, created on first use. */
export async function customerAccounts(
  tx: Db | Tx,
  userId: string,
): Promise<{ available: string; held: string }> {
  // They exist after the first movement: read first, create only when missing.
  const existing = await tx
    .select({ id: ledgerAccount.id, kind: ledgerAccount.kind })
    .from(ledgerAccount)
    .where(eq(ledgerAccount.userId, userId));
  const availableId = existing.find((r) => r.kind === 'available')?.id;
  const heldId = existing.find((r) => r.kind === 'held')?.id;
  if (availableId && heldId) return { available: availableId, held: heldId };
  await tx
    .insert(ledgerAccount)
    .values([
      { userId, kind: 'available' },
      { userId, kind: 'held' },
    ])
    .onConflictDoNothing();
  const rows = await tx
    .select({ id: ledgerAccount.id, kind: ledgerAccount.kind })
    .from(ledgerAccount)
    .where(eq(ledgerAccount.userId, userId));
  const available = rows.find((r) => r.kind === 'available')?.id;
  const held = rows.find((r) => r.kind === 'held')?.id;
  if (!available || !held) throw new Error(`customer accounts missing for ${userId}`);
  return { available, held };
}

export async function systemAccount(tx: Db | Tx, kind: SystemAccount): Promise<string> {
  const [row] = await tx
    .select({ id: ledgerAccount.id })
    .from(ledgerAccount)
    .where(and(eq(ledgerAccount.kind, kind), isNull(ledgerAccount.userId)));
  if (row) return row.id;
  const [created] = await tx
    .insert(ledgerAccount)
    .values({ kind })
    .onConflictDoNothing()
    .returning({ id: ledgerAccount.id });
  if (created) return created.id;
  return systemAccount(tx, kind);
}

/**
 * Moves `amount` cents from one account to another, inside the caller's transaction, in one
 * statement: the database function `cometa_transfer` (migration 0010) does every step.
 * - The idempotency key is claimed first (unique index): a concurrent or later replay waits for
 *   the first, then moves nothing and returns it; the same key with other data is a CONFLICT.
 * - Both rows are locked in a fixed order (by id) so opposite transfers cannot deadlock.
 * - The debit is a guarded UPDATE: a customer account that would go below minus its credit
 *   limit (zero for most) is not touched and the whole transaction fails with
 *   INSUFFICIENT_FUNDS (and a CHECK and a trigger back it up).
 * This is the only code that writes balances.
 */
export async function transfer(tx: Tx, input: TransferInput): Promise<TransferResult> {
  if (input.amount <= 0n) throw new AppError('BAD_REQUEST', 'El importe debe ser mayor que cero.');
  if (input.from === input.to) throw new Error('transfer between the same account');
  try {
    const [row] = await queryRows<{ moved_transfer_id: string; was_replayed: boolean }>(
      tx,
      sql`SELECT moved_transfer_id, was_replayed FROM cometa_transfer(
            ${input.kind}, ${input.from}::uuid, ${input.to}::uuid, ${input.amount}::bigint,
            ${input.reference.type}, ${input.reference.id}, ${input.idempotencyKey},
            ${input.description}, ${input.actorId ?? null}::text)`,
    );
    if (!row) throw new Error('cometa_transfer returned no row');
    return { transferId: row.moved_transfer_id, replayed: row.was_replayed };
  } catch (err) {
    throw ledgerError(err);
  }
}

/** The refusal of a debit from a customer who has a credit limit: the credit is spent too. */
export const CREDIT_EXHAUSTED = 'Tu saldo y tu crédito disponible no alcanzan para esta operación.';

/** The DETAIL of a database error (CM001 carries the account's credit limit in cents). */
function pgErrorDetail(err: unknown): string | null {
  let current: unknown = err;
  for (let depth = 0; current && depth < 5; depth += 1) {
    if (typeof current === 'object' && 'code' in current && typeof current.code === 'string')
      return 'detail' in current && typeof current.detail === 'string' ? current.detail : null;
    current = typeof current === 'object' && 'cause' in current ? current.cause : undefined;
  }
  return null;
}

/**
 * The errors the ledger's database functions raise, as the app's errors: CM001 insufficient
 * funds (its message mentions the credit when the account has a limit), CM002 an idempotency
 * key reused with other data; anything else unchanged.
 */
export function ledgerError(err: unknown): unknown {
  const code = pgErrorCode(err);
  if (code === 'CM001') {
    const limit = pgErrorDetail(err);
    return limit !== null && /^[1-9]\d*$/.test(limit)
      ? new AppError('INSUFFICIENT_FUNDS', CREDIT_EXHAUSTED)
      : new AppError('INSUFFICIENT_FUNDS');
  }
  if (code === 'CM002')
    return new AppError('CONFLICT', 'Esta operación ya se registró con otros datos.');
  return err;
}

/** Runs `fn` in a transaction (every money movement commits with its business change). */
export function inTransaction<T>(db: Db, fn: (tx: Tx) => Promise<T>): Promise<T> {
  return db.transaction(fn);
}

export async function balances(
  tx: Db | Tx,
  userId: string,
): Promise<{ available: bigint; held: bigint }> {
  const rows = await tx
    .select({ kind: ledgerAccount.kind, balance: ledgerAccount.balance })
    .from(ledgerAccount)
    .where(eq(ledgerAccount.userId, userId));
  return {
    available: rows.find((r) => r.kind === 'available')?.balance ?? 0n,
    held: rows.find((r) => r.kind === 'held')?.balance ?? 0n,
  };
}

export type Standing = { available: bigint; held: bigint; creditLimit: bigint; spendable: bigint };

/**
 * The customer's balances with their credit (docs/domain.md §3): `available` (negative while
 * they owe), `held`, `creditLimit` and what they can still spend (`spendable` = available +
 * limit, never below zero: a lowered limit can leave a debt larger than it).
 */
export async function standing(tx: Db | Tx, userId: string): Promise<Standing> {
  const rows = await tx
    .select({
      kind: ledgerAccount.kind,
      balance: ledgerAccount.balance,
      creditLimit: ledgerAccount.creditLimit,
    })
    .from(ledgerAccount)
    .where(eq(ledgerAccount.userId, userId));
  const available = rows.find((r) => r.kind === 'available');
  const balance = available?.balance ?? 0n;
  const creditLimit = available?.creditLimit ?? 0n;
  const spendable = balance + creditLimit;
  return {
    available: balance,
    held: rows.find((r) => r.kind === 'held')?.balance ?? 0n,
    creditLimit,
    spendable: spendable > 0n ? spendable : 0n,
  };
}
