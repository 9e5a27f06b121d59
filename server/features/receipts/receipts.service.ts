// Numbered receipts (docs/domain.md "Receipts"): the customer's own list and PDFs, and finance's
// list of every receipt of a range of days, as JSON or CSV. Receipts are issued by the crediting
// transaction (receipt-number.ts) and never change; here they are only read.
import { and, eq, getTableColumns, gte, lt, sql, type SQL } from 'drizzle-orm';
import { formatAmount } from '../../../shared/money';
import type { ReceiptDto, ReceiptList } from '../../../shared/schemas/payments';
import { PAYMENT_METHOD_LABELS, type PaymentMethod } from '../../../shared/schemas/wallet';
import type { Db } from '../../db/client';
import { manualMethod, payment, receipt } from '../../db/schema/payments';
import { csvDateTime, toCsv } from '../../lib/csv';
import { AppError } from '../../lib/errors';
import { customerOf, renderReceiptPdf, type ReceiptRow } from './receipts.pdf';

/** Receipts per page of the lists. */
export const RECEIPTS_PAGE = 50;
/** Receipts read per query while writing a CSV file. */
const CSV_BATCH = 1000;

const BAD_CURSOR = 'El cursor de la página no es válido.';

type Position = { year: number; seq: number };

type Row = ReceiptRow & { manualName: string | null };

function methodNameOf(row: Row): string {
  return row.manualName ?? PAYMENT_METHOD_LABELS[row.method as PaymentMethod] ?? row.method;
}

export function toReceiptDto(row: Row): ReceiptDto {
  const customer = customerOf(row);
  return {
    id: row.id,
    number: row.number,
    paymentId: row.paymentId,
    method: row.method as PaymentMethod,
    methodName: methodNameOf(row),
    description: row.description,
    amount: formatAmount(row.amount),
    fee: formatAmount(row.fee),
    total: formatAmount(row.amount + row.fee),
    chargedAmount: row.chargedAmount === null ? null : formatAmount(row.chargedAmount),
    chargedCurrency: row.chargedCurrency,
    customer: { id: row.userId, name: customer.name, email: customer.email },
    issuedAt: row.issuedAt.toISOString(),
  };
}

/**
 * The cursor of a list: the last receipt's year and sequence ("2026-123"). Receipts are listed by
 * number, newest first: within a year the sequence is the order they were issued in.
 */
function readCursor(cursor: string): Position {
  const match = /^(\d{4})-(\d{1,9})$/.exec(cursor);
  if (!match) throw new AppError('BAD_REQUEST', BAD_CURSOR);
  return { year: Number(match[1]), seq: Number(match[2]) };
}

function writeCursor(row: Position): string {
  return `${row.year}-${row.seq}`;
}

/**
 * Receipts matching `where` in number order (`desc`: newest first), past `after` in that order,
 * at most `limit`, with the manual method's name.
 */
async function selectRows(
  db: Db,
  where: (SQL | undefined)[],
  after: Position | undefined,
  limit: number,
  order: 'asc' | 'desc' = 'desc',
): Promise<Row[]> {
  const past = order === 'desc' ? sql`<` : sql`>`;
  const direction = order === 'desc' ? sql`DESC` : sql`ASC`;
  return db
    .select({ ...getTableColumns(receipt), manualName: manualMethod.name })
    .from(receipt)
    .innerJoin(payment, eq(payment.id, receipt.paymentId))
    .leftJoin(manualMethod, eq(manualMethod.id, payment.manualMethodId))
    .where(
      and(
        ...where,
        after
          ? sql`(${receipt.year}, ${receipt.seq}) ${past} (${after.year}, ${after.seq})`
          : undefined,
      ),
    )
    .orderBy(sql`${receipt.year} ${direction}, ${receipt.seq} ${direction}`)
    .limit(limit);
}

async function page(
  db: Db,
  where: (SQL | undefined)[],
  cursor: string | undefined,
): Promise<ReceiptList> {
  const after = cursor ? readCursor(cursor) : undefined;
  const rows = await selectRows(db, where, after, RECEIPTS_PAGE + 1);
  const items = rows.slice(0, RECEIPTS_PAGE);
  const last = items.at(-1);
  return {
    items: items.map(toReceiptDto),
    nextCursor: rows.length > RECEIPTS_PAGE && last ? writeCursor(last) : null,
  };
}

/** GET /api/receipts: the customer's own receipts, newest first. */
export function listMyReceipts(db: Db, userId: string, cursor: string | undefined) {
  return page(db, [eq(receipt.userId, userId)], cursor);
}

// ─── Finance: a range of days ────────────────────────────────────────────────────────────────

const DAY_MESSAGE = 'La fecha no es válida: usa el formato AAAA-MM-DD (por ejemplo 2026-05-01).';

function isDay(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const t = Date.parse(`${value}T00:00:00Z`);
  return Number.isFinite(t) && new Date(t).toISOString().slice(0, 10) === value;
}

function addDays(day: string, n: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
}

export type DayRange = { from: string; to: string };

/**
 * The days asked for, both included, in UTC: `to` defaults to today, `from` to the first day of
 * `to`'s month. Impossible dates (2026-02-30) and a `from` after `to` are refused per field.
 */
export function dayRange(query: { from?: string; to?: string }, now = new Date()): DayRange {
  const fields: Record<string, string> = {};
  if (query.from !== undefined && !isDay(query.from)) fields.from = DAY_MESSAGE;
  if (query.to !== undefined && !isDay(query.to)) fields.to = DAY_MESSAGE;
  if (Object.keys(fields).length) throw new AppError('VALIDATION_FAILED', undefined, fields);
  const to = query.to ?? now.toISOString().slice(0, 10);
  const from = query.from ?? `${to.slice(0, 7)}-01`;
  if (from > to)
    throw new AppError('VALIDATION_FAILED', undefined, {
      to: 'La fecha final no puede ser anterior a la inicial.',
    });
  return { from, to };
}

function inRange(range: DayRange): SQL[] {
  return [
    gte(receipt.issuedAt, new Date(`${range.from}T00:00:00Z`)),
    lt(receipt.issuedAt, new Date(`${addDays(range.to, 1)}T00:00:00Z`)),
  ];
}

/** GET /api/admin/receipts (JSON): the receipts issued in the range, newest first. */
export function listReceipts(db: Db, range: DayRange, cursor: string | undefined) {
  return page(db, inRange(range), cursor);
}

export const RECEIPTS_CSV_HEADER = [
  'número',
  'fecha',
  'cliente',
  'correo',
  'método',
  'concepto',
  'importe',
  'comisión',
  'total',
  'importe cobrado',
  'moneda cobrada',
  'id de pago',
] as const;

/**
 * GET /api/admin/receipts?format=csv: every receipt of the range (no pages), oldest first, read in
 * batches. CSV for programs (server/lib/csv.ts, RFC 4180 form): commas, CRLF, no BOM, ISO 8601
 * dates in UTC, plain amounts ("25.00"), and no cell a spreadsheet would run as a formula.
 */
export async function receiptsCsv(db: Db, range: DayRange): Promise<string> {
  const lines: string[][] = [];
  let after: Position | undefined;
  for (;;) {
    const rows = await selectRows(db, inRange(range), after, CSV_BATCH, 'asc');
    for (const row of rows) {
      const customer = customerOf(row);
      lines.push([
        row.number,
        csvDateTime(row.issuedAt, { format: 'rfc4180', timeZone: null }),
        customer.name,
        customer.email,
        methodNameOf(row),
        row.description,
        formatAmount(row.amount),
        formatAmount(row.fee),
        formatAmount(row.amount + row.fee),
        row.chargedAmount === null ? '' : formatAmount(row.chargedAmount),
        row.chargedCurrency ?? '',
        row.paymentId,
      ]);
    }
    const last = rows.at(-1);
    if (rows.length < CSV_BATCH || !last) break;
    after = last;
  }
  return toCsv(RECEIPTS_CSV_HEADER, lines, 'rfc4180');
}

// ─── The PDF ─────────────────────────────────────────────────────────────────────────────────

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The PDF of receipt `id`: for its owner (`ownerId`), or for finance (`null`: any receipt).
 * Unknown, malformed and other people's ids all answer the same 404.
 */
export async function receiptPdf(
  db: Db,
  id: string,
  ownerId: string | null,
  appName: string,
): Promise<{ number: string; pdf: Buffer }> {
  if (!UUID.test(id)) throw new AppError('NOT_FOUND', 'El recibo no existe.');
  const [row] = await selectRows(
    db,
    [eq(receipt.id, id), ownerId === null ? undefined : eq(receipt.userId, ownerId)],
    undefined,
    1,
  );
  if (!row) throw new AppError('NOT_FOUND', 'El recibo no existe.');
  const pdf = await renderReceiptPdf(row, { appName, methodName: methodNameOf(row) });
  return { number: row.number, pdf };
}
