import { sql, type SQL } from 'drizzle-orm';
import { formatAmount } from '../../../shared/money';
import {
  CUSTOMER_PAGE_SIZE,
  CUSTOMER_SEARCH_MAX_LENGTH,
  type CustomerList,
  type CustomerSort,
} from '../../../shared/schemas/admin';
import { queryRows, type Db } from '../../db/client';
import { AppError } from '../../lib/errors';

export type CustomerListOptions = {
  q?: string | undefined;
  sort?: CustomerSort | undefined;
  dir?: 'asc' | 'desc' | undefined;
  /** true: only blocked accounts; false: only the others; undefined: all. */
  blocked?: boolean | undefined;
  cursor?: string | undefined;
  limit?: number | undefined;
};

type Row = {
  id: string;
  name: string;
  email: string;
  role: string;
  email_verified: boolean;
  blocked: boolean;
  /** Text, not the key columns: ORDER BY would take an output column of the same name. */
  balance_text: string;
  spend_text: string;
  last_order_key: string;
  created_key: string;
};

/** An instant as PostgreSQL keeps it (microseconds), as text that sorts like the instant. */
const exact = (column: SQL) =>
  sql`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;
const EXACT_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
const ACCOUNT_ID = /^[A-Za-z0-9_-]{1,64}$/;
const AMOUNT = /^-?\d{1,19}$/;

/**
 * Each sort: its key column in the rows below, how its value sits in a cursor, and how the
 * cursor's value is compared. Money keys are bigints; times are their exact text ('' for a
 * customer who never ordered, who sorts last going down), compared byte by byte.
 */
const SORTS: Record<CustomerSort, { key: string; valid: RegExp; cast: (v: string) => SQL }> = {
  balance: { key: 'balance', valid: AMOUNT, cast: (v) => sql`${v}::bigint` },
  spend: { key: 'spend', valid: AMOUNT, cast: (v) => sql`${v}::bigint` },
  lastOrder: {
    key: 'last_order_key',
    valid: /^(?:\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z)?$/,
    cast: (v) => sql`${v}::text COLLATE "C"`,
  },
  created: { key: 'created_key', valid: EXACT_TIME, cast: (v) => sql`${v}::text COLLATE "C"` },
};

type Cursor = { s: CustomerSort; d: 'asc' | 'desc'; k: string; i: string };

function readCursor(text: string, sort: CustomerSort, dir: 'asc' | 'desc'): Cursor {
  const bad = new AppError('BAD_REQUEST', 'El cursor de la página no es válido.');
  let cursor: unknown;
  try {
    cursor = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    throw bad;
  }
  const c = cursor as Partial<Cursor> | null;
  if (
    typeof c !== 'object' ||
    c === null ||
    c.s !== sort ||
    c.d !== dir ||
    typeof c.k !== 'string' ||
    typeof c.i !== 'string' ||
    !SORTS[sort].valid.test(c.k) ||
    !ACCOUNT_ID.test(c.i)
  )
    throw bad;
  return c as Cursor;
}

function writeCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify(cursor)).toString('base64url');
}

function asIso(exactTime: string): string {
  // "2026-11-24T13:50:00.123456Z" → "2026-11-24T13:50:00.123Z" (what the API's dates look like).
  return new Date(`${exactTime.slice(0, 23)}Z`).toISOString();
}

/**
 * GET /api/admin/users: the accounts (deleted ones left out), filtered by a part of the e-mail
 * or the name and by being blocked, sorted by balance, last order, spend or creation (newest,
 * richest… first unless `dir` is `asc`), a keyset page at a time. Spend is what their orders
 * took: the captures of their held money in the ledger.
 */
export async function listCustomers(db: Db, options: CustomerListOptions): Promise<CustomerList> {
  const sort = options.sort ?? 'created';
  const dir = options.dir ?? 'desc';
  const limit = options.limit ?? CUSTOMER_PAGE_SIZE;
  const spec = SORTS[sort];
  const after = options.cursor ? readCursor(options.cursor, sort, dir) : null;
  const term = (options.q ?? '').trim().slice(0, CUSTOMER_SEARCH_MAX_LENGTH);
  const pattern = `%${term.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
  const key = sql.raw(spec.key);
  const order = sql.raw(dir === 'desc' ? 'DESC' : 'ASC');
  const keyCompare = sort === 'lastOrder' || sort === 'created' ? sql`${key} COLLATE "C"` : key;
  const rows = await queryRows<Row>(
    db,
    sql`
    WITH rows AS (
      SELECT u.id, u.name, u.email, u.role, u.email_verified,
        (u.banned IS TRUE AND (u.ban_expires IS NULL OR u.ban_expires > now())) AS blocked,
        COALESCE(av.balance, 0) AS balance,
        COALESCE((
          SELECT -sum(e.amount) FROM ledger_entry e
          JOIN ledger_transfer t ON t.id = e.transfer_id
          WHERE e.account_id = held.id AND t.kind = 'order_capture'
        ), 0) AS spend,
        COALESCE((
          SELECT ${exact(sql`max(o.created_at)`)} FROM "order" o WHERE o.user_id = u.id
        ), '') AS last_order_key,
        ${exact(sql`u.created_at`)} AS created_key
      FROM "user" u
      LEFT JOIN ledger_account av ON av.user_id = u.id AND av.kind = 'available'
      LEFT JOIN ledger_account held ON held.user_id = u.id AND held.kind = 'held'
      WHERE u.deleted_at IS NULL
        ${term ? sql`AND (u.email ILIKE ${pattern} OR u.name ILIKE ${pattern})` : sql``}
    )
    SELECT id, name, email, role, email_verified, blocked, balance::text AS balance_text,
      spend::text AS spend_text, last_order_key, created_key
    FROM rows
    WHERE TRUE
      ${options.blocked === undefined ? sql`` : sql`AND blocked = ${options.blocked}`}
      ${
        after
          ? dir === 'desc'
            ? sql`AND (${keyCompare}, id COLLATE "C") < (${spec.cast(after.k)}, ${after.i}::text COLLATE "C")`
            : sql`AND (${keyCompare}, id COLLATE "C") > (${spec.cast(after.k)}, ${after.i}::text COLLATE "C")`
          : sql``
      }
    ORDER BY ${keyCompare} ${order}, id COLLATE "C" ${order}
    LIMIT ${limit + 1}`,
  );
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  const keyOf = (r: Row): string =>
    sort === 'balance'
      ? r.balance_text
      : sort === 'spend'
        ? r.spend_text
        : sort === 'lastOrder'
          ? r.last_order_key
          : r.created_key;
  return {
    items: page.map((r) => {
      const balance = formatAmount(BigInt(r.balance_text));
      return {
        id: r.id,
        name: r.name,
        email: r.email,
        role: r.role,
        emailVerified: r.email_verified,
        balance,
        available: balance,
        lastOrderAt: r.last_order_key ? asIso(r.last_order_key) : null,
        spend: formatAmount(BigInt(r.spend_text)),
        createdAt: asIso(r.created_key),
        blocked: r.blocked,
      };
    }),
    nextCursor:
      rows.length > limit && last
        ? writeCursor({ s: sort, d: dir, k: keyOf(last), i: last.id })
        : null,
  };
}
