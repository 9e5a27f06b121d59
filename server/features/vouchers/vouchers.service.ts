import { randomBytes } from 'node:crypto';
import { and, asc, count, desc, eq, gt, inArray, isNull, or, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { formatAmount, parseAmount } from '../../../shared/money';
import type { Db, Tx } from '../../db/client';
import { user } from '../../db/schema/auth';
import { payment, voucher, voucherBatch } from '../../db/schema/payments';
import { AppError } from '../../lib/errors';
import { csvAmount, csvDateTime, toCsv, type CsvStyle } from '../../lib/csv';
import { recordAudit } from '../audit/audit.service';
import { balances } from '../ledger/ledger.service';
import { completePayment } from '../payments/payments.service';
import {
  MAX_BATCH_SIZE,
  MAX_NOTE_LENGTH,
  parseExpiry,
  type CreatedBatchDto,
  type VoucherBatchDto,
  type VoucherState,
} from '../../../shared/schemas/vouchers';

/** No 0/O, 1/I/L: codes are read aloud and typed from paper. 31 symbols. */
export const CODE_ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
const CODE_PREFIX = 'CMT';
const CODE_GROUPS = 3;
const CODE_GROUP_LENGTH = 4;
const CODE_BODY_LENGTH = CODE_GROUPS * CODE_GROUP_LENGTH;
export const CODE_PATTERN = new RegExp(
  `^${CODE_PREFIX}(?:-[${CODE_ALPHABET}]{${CODE_GROUP_LENGTH}}){${CODE_GROUPS}}$`,
);

const UNKNOWN_CODE = 'Este código no es válido. Revisa que esté bien escrito.';

/** A fresh random code, `CMT-XXXX-XXXX-XXXX` (about 59 bits), without modulo bias. */
export function generateCode(): string {
  // 248 = 31 × 8: bytes at or above it are dropped so every symbol is equally likely.
  const limit = 256 - (256 % CODE_ALPHABET.length);
  let body = '';
  while (body.length < CODE_BODY_LENGTH) {
    for (const byte of randomBytes(CODE_BODY_LENGTH * 2)) {
      if (byte >= limit) continue;
      body += CODE_ALPHABET[byte % CODE_ALPHABET.length];
      if (body.length === CODE_BODY_LENGTH) break;
    }
  }
  return formatBody(body);
}

function formatBody(body: string): string {
  const groups: string[] = [];
  for (let i = 0; i < body.length; i += CODE_GROUP_LENGTH) {
    groups.push(body.slice(i, i + CODE_GROUP_LENGTH));
  }
  return [CODE_PREFIX, ...groups].join('-');
}

/**
 * What the customer typed, as stored: trimmed, upper case, spaces and dashes put back where
 * they belong ("cmt abcd efgh jkmn", "CMTABCDEFGHJKMN" or just the 12 symbols). Anything that
 * does not fit is returned as typed (upper case) and simply matches no code.
 */
export function normalizeCode(input: string): string {
  const upper = input.trim().toUpperCase();
  const compact = upper.replace(/[\s-]+/g, '');
  if (compact.length === CODE_PREFIX.length + CODE_BODY_LENGTH && compact.startsWith(CODE_PREFIX)) {
    return formatBody(compact.slice(CODE_PREFIX.length));
  }
  if (compact.length === CODE_BODY_LENGTH) return formatBody(compact);
  return upper;
}

function batchDto(row: {
  id: string;
  amount: bigint;
  count: number;
  redeemed: number;
  expiresAt: Date | null;
  note: string | null;
  createdAt: Date;
  createdBy: string;
}): VoucherBatchDto {
  return {
    id: row.id,
    amount: formatAmount(row.amount),
    count: row.count,
    redeemed: row.redeemed,
    expiresAt: row.expiresAt?.toISOString() ?? null,
    note: row.note,
    createdAt: row.createdAt.toISOString(),
    createdBy: row.createdBy,
  };
}

/**
 * Creates `count` codes worth `amount` each, in one transaction with the batch and its audit
 * row. A code that happens to exist already (unique index) is replaced by a fresh one.
 */
export async function createBatch(
  db: Db,
  adminId: string,
  input: {
    amount: string;
    count: number;
    expiresAt?: string | undefined;
    note?: string | undefined;
  },
  ip: string,
): Promise<CreatedBatchDto> {
  const cents = parseAmount(input.amount);
  if (cents === null || cents <= 0n) {
    throw new AppError('VALIDATION_FAILED', undefined, { amount: 'Escribe un importe válido.' });
  }
  if (!Number.isInteger(input.count) || input.count < 1 || input.count > MAX_BATCH_SIZE) {
    throw new AppError('VALIDATION_FAILED', undefined, {
      count: `Crea entre 1 y ${MAX_BATCH_SIZE} códigos.`,
    });
  }
  let expiresAt: Date | null = null;
  if (input.expiresAt !== undefined) {
    expiresAt = parseExpiry(input.expiresAt);
    if (!expiresAt || expiresAt.getTime() <= Date.now()) {
      throw new AppError('VALIDATION_FAILED', undefined, {
        expiresAt: 'La fecha de caducidad debe ser futura.',
      });
    }
  }
  const note = input.note?.trim() || null;
  if (note !== null && note.length > MAX_NOTE_LENGTH) {
    throw new AppError('VALIDATION_FAILED', undefined, {
      note: `La nota no puede tener más de ${MAX_NOTE_LENGTH} caracteres.`,
    });
  }

  return db.transaction(async (tx) => {
    const [batch] = await tx
      .insert(voucherBatch)
      .values({ amount: cents, count: input.count, expiresAt, note, createdBy: adminId })
      .returning();
    if (!batch) throw new Error('voucher batch insert returned nothing');
    const codes: string[] = [];
    for (let attempt = 0; codes.length < input.count; attempt += 1) {
      if (attempt >= 10) throw new Error('could not generate unique voucher codes');
      const wanted = new Set<string>();
      while (wanted.size < input.count - codes.length) wanted.add(generateCode());
      const inserted = await tx
        .insert(voucher)
        .values([...wanted].map((code) => ({ batchId: batch.id, code })))
        .onConflictDoNothing({ target: voucher.code })
        .returning({ code: voucher.code });
      codes.push(...inserted.map((r) => r.code));
    }
    const [creator] = await tx.select({ email: user.email }).from(user).where(eq(user.id, adminId));
    const dto = batchDto({ ...batch, redeemed: 0, createdBy: creator?.email ?? '' });
    await recordAudit(tx, {
      actorId: adminId,
      action: 'voucher.batch.create',
      targetType: 'voucher_batch',
      targetId: batch.id,
      after: { amount: dto.amount, count: dto.count, expiresAt: dto.expiresAt, note: dto.note },
      ipAddress: ip,
    });
    return { batch: dto, codes };
  });
}

/** Every batch, newest first, with how many of its codes were redeemed. */
export async function listBatches(db: Db): Promise<VoucherBatchDto[]> {
  const redeemed = db
    .select({ batchId: voucher.batchId, n: count(voucher.redeemedBy).as('n') })
    .from(voucher)
    .groupBy(voucher.batchId)
    .as('redeemed');
  const rows = await db
    .select({
      id: voucherBatch.id,
      amount: voucherBatch.amount,
      count: voucherBatch.count,
      redeemed: sql<number>`coalesce(${redeemed.n}, 0)::int`,
      expiresAt: voucherBatch.expiresAt,
      note: voucherBatch.note,
      createdAt: voucherBatch.createdAt,
      createdBy: user.email,
    })
    .from(voucherBatch)
    .innerJoin(user, eq(user.id, voucherBatch.createdBy))
    .leftJoin(redeemed, eq(redeemed.batchId, voucherBatch.id))
    .orderBy(desc(voucherBatch.createdAt), desc(voucherBatch.id));
  return rows.map((r) => batchDto({ ...r, redeemed: Number(r.redeemed) }));
}

/**
 * The batch's codes as CSV (one line per code, CRLF line ends); 404 when there is no batch.
 * `batchId` is a UUID (the route's path parameter is checked before).
 */
/** The words of the Excel form for each state. */
const STATE_LABELS: Record<VoucherState, string> = {
  canjeado: 'Canjeado',
  caducado: 'Caducado',
  disponible: 'Disponible',
};

export async function batchCsv(
  db: Db,
  batchId: string,
  style: CsvStyle = { format: 'rfc4180', timeZone: null },
  now: Date = new Date(),
): Promise<string> {
  const [batch] = await db.select().from(voucherBatch).where(eq(voucherBatch.id, batchId));
  if (!batch) throw new AppError('NOT_FOUND', 'El lote de códigos no existe.');
  const redeemer = alias(user, 'redeemer');
  const rows = await db
    .select({
      code: voucher.code,
      redeemedAt: voucher.redeemedAt,
      redeemedBy: redeemer.email,
    })
    .from(voucher)
    .leftJoin(redeemer, eq(redeemer.id, voucher.redeemedBy))
    .where(eq(voucher.batchId, batchId))
    .orderBy(asc(voucher.code));
  const excel = style.format === 'excel';
  const amount = csvAmount(formatAmount(batch.amount), style);
  const expires = csvDateTime(batch.expiresAt, style);
  const expired = batch.expiresAt !== null && batch.expiresAt.getTime() <= now.getTime();
  const zone = style.timeZone ? '' : ' (UTC)';
  return toCsv(
    excel
      ? ['Código', 'Importe (USD)', 'Estado', 'Canjeado por', `Canjeado el${zone}`, `Caduca${zone}`]
      : ['codigo', 'importe', 'estado', 'canjeado_por', 'canjeado_el', 'caduca'],
    rows.map((row) => {
      const state: VoucherState = row.redeemedAt ? 'canjeado' : expired ? 'caducado' : 'disponible';
      return [
        row.code,
        amount,
        excel ? STATE_LABELS[state] : state,
        row.redeemedBy ?? '',
        csvDateTime(row.redeemedAt, style),
        expires,
      ];
    }),
    style.format,
  );
}

/** Why a code could not be spent: unknown (404), already spent (409) or expired (400). */
async function refusal(tx: Tx, code: string): Promise<AppError> {
  const [row] = await tx
    .select({
      redeemedBy: voucher.redeemedBy,
      expired: sql<boolean>`${voucherBatch.expiresAt} IS NOT NULL AND ${voucherBatch.expiresAt} <= now()`,
    })
    .from(voucher)
    .innerJoin(voucherBatch, eq(voucherBatch.id, voucher.batchId))
    .where(eq(voucher.code, code));
  if (!row) return new AppError('NOT_FOUND', UNKNOWN_CODE);
  if (row.redeemedBy !== null) return new AppError('CONFLICT', 'Este código ya fue canjeado.');
  if (row.expired) return new AppError('BAD_REQUEST', 'Este código ha caducado.');
  // Not spent, not expired, yet not claimed: it cannot happen, answer as for an unknown code.
  return new AppError('NOT_FOUND', UNKNOWN_CODE);
}

/**
 * Spends a code for the customer and credits its value, once: the conditional UPDATE lets only
 * one request (of any customer) claim the code, and the payment is completed in the same
 * transaction through `completePayment`. Attempts are rate limited per customer (guessing) by
 * the route (POST /api/funds/redeem), before this runs.
 */
export async function redeem(
  db: Db,
  userId: string,
  rawCode: string,
): Promise<{ amount: string; available: string }> {
  const code = normalizeCode(rawCode);
  if (!CODE_PATTERN.test(code)) throw new AppError('NOT_FOUND', UNKNOWN_CODE);

  return db.transaction(async (tx) => {
    const usable = tx
      .select({ id: voucherBatch.id })
      .from(voucherBatch)
      .where(or(isNull(voucherBatch.expiresAt), gt(voucherBatch.expiresAt, sql`now()`)));
    const [claimed] = await tx
      .update(voucher)
      .set({ redeemedBy: userId, redeemedAt: sql`now()` })
      .where(
        and(eq(voucher.code, code), isNull(voucher.redeemedBy), inArray(voucher.batchId, usable)),
      )
      .returning({ id: voucher.id, batchId: voucher.batchId });
    if (!claimed) throw await refusal(tx, code);

    const [batch] = await tx
      .select({ amount: voucherBatch.amount })
      .from(voucherBatch)
      .where(eq(voucherBatch.id, claimed.batchId));
    if (!batch) throw new Error(`voucher batch ${claimed.batchId} not found`);
    const [created] = await tx
      .insert(payment)
      .values({
        userId,
        method: 'voucher',
        status: 'pending',
        amount: batch.amount,
        reference: claimed.id,
      })
      .returning({ id: payment.id });
    if (!created) throw new Error('voucher payment insert returned nothing');
    await tx.update(voucher).set({ paymentId: created.id }).where(eq(voucher.id, claimed.id));
    const completed = await completePayment(tx, created.id);
    if (!completed.credited) throw new Error(`voucher payment ${created.id} was not credited`);
    const after = await balances(tx, userId);
    return { amount: formatAmount(batch.amount), available: formatAmount(after.available) };
  });
}
