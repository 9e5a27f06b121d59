// Reports (docs/domain.md, Cost, margin and reports). Every figure comes from the orders settled
// in the range (`order.settled_at`, written in the transaction that moved their money, so the
// ledger agrees to the cent), read in one pass with grouping sets: the breakdown, the series and
// the customers at once. Top-ups come from the ledger.
import { inArray, sql } from 'drizzle-orm';
import { categoryLabel } from '../../../shared/categories';
import { formatAmount } from '../../../shared/money';
import {
  TOPUP_METHOD_LABELS,
  type Report,
  type ReportBreakdown,
  type ReportFigures,
  type ReportPeriod,
  type ReportPoint,
  type ReportRow,
  type ReportTopup,
  type TopupMethod,
} from '../../../shared/schemas/reports';
import { queryRows, type Db } from '../../db/client';
import { user } from '../../db/schema/auth';
import { service } from '../../db/schema/catalogue';
import { supplier } from '../../db/schema/suppliers';
import { groupsOfCustomers } from './customer-group';

/** The key of orders fulfilled by hand in `by=supplier`. */
export const MANUAL_SUPPLIER_KEY = 'manual';
const MANUAL_SUPPLIER_LABEL = 'Sin proveedor (a mano)';
const TOP_CUSTOMERS = 10;

type Sums = { revenue: bigint; cost: bigint; refunds: bigint; orders: number };

const zero = (): Sums => ({ revenue: 0n, cost: 0n, refunds: 0n, orders: 0 });

function add(a: Sums, b: Sums): Sums {
  return {
    revenue: a.revenue + b.revenue,
    cost: a.cost + b.cost,
    refunds: a.refunds + b.refunds,
    orders: a.orders + b.orders,
  };
}

function figures(s: Sums): ReportFigures {
  return {
    revenue: formatAmount(s.revenue),
    cost: formatAmount(s.cost),
    margin: formatAmount(s.revenue - s.cost),
    orders: s.orders,
    refunds: formatAmount(s.refunds),
  };
}

/** `YYYY-MM-DD` + n days. */
function addDays(day: string, n: number): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
}

/** The first day of the period holding `day` (weeks start on Monday, as PostgreSQL's). */
export function periodStart(day: string, period: ReportPeriod): string {
  if (period === 'day') return day;
  if (period === 'month') return `${day.slice(0, 7)}-01`;
  const weekday = new Date(`${day}T00:00:00Z`).getUTCDay();
  return addDays(day, -((weekday + 6) % 7));
}

/** Every period from the one holding `from` to the one holding `to`. */
export function periodsOf(from: string, to: string, period: ReportPeriod): string[] {
  const out: string[] = [];
  let p = periodStart(from, period);
  while (p <= to) {
    out.push(p);
    if (period === 'day') p = addDays(p, 1);
    else if (period === 'week') p = addDays(p, 7);
    else {
      const d = new Date(`${p}T00:00:00Z`);
      d.setUTCMonth(d.getUTCMonth() + 1);
      p = d.toISOString().slice(0, 10);
    }
  }
  return out;
}

/**
 * The figures of one order as SQL (alias `o`): revenue is what was captured (the whole price when
 * completed, the delivered share when partial: price − ⌊price × remains ÷ quantity⌋, as the ledger
 * captured it); refunds what went back (the undelivered share, or the whole price when rejected or
 * cancelled); cost its net cost (partial deliveries already reduced it; unknown counts as 0).
 */
const REVENUE = sql.raw(
  `CASE o.status WHEN 'completed' THEN o.price WHEN 'partial' THEN o.price - (o.price * COALESCE(o.remains, 0)) / o.quantity ELSE 0 END`,
);
const REFUNDS = sql.raw(
  `CASE o.status WHEN 'partial' THEN (o.price * COALESCE(o.remains, 0)) / o.quantity WHEN 'rejected' THEN o.price WHEN 'cancelled' THEN o.price ELSE 0 END`,
);
const COST = sql.raw(
  `CASE WHEN o.status IN ('completed', 'partial') THEN COALESCE(o.cost, 0) ELSE 0 END`,
);
const COUNTED = sql.raw(`CASE WHEN o.status IN ('completed', 'partial') THEN 1 ELSE 0 END`);

/** What `rows` are keyed by, in SQL; `customer` and `group` use the customer grouping. */
const KEY: Record<ReportBreakdown, string> = {
  category: 'o.category',
  service: 'o.service_id::text',
  supplier: `COALESCE(o.supplier_id::text, '${MANUAL_SUPPLIER_KEY}')`,
  customer: 'o.user_id',
  group: 'o.user_id',
};

type Grouped = {
  g_key: number;
  g_bucket: number;
  k: string | null;
  bucket: string | null;
  user_id: string | null;
  revenue: string;
  cost: string;
  refunds: string;
  orders: number | string;
};

function sumsOf(r: Grouped): Sums {
  return {
    revenue: BigInt(r.revenue),
    cost: BigInt(r.cost),
    refunds: BigInt(r.refunds),
    orders: Number(r.orders),
  };
}

/** The instants a range of days covers: [from 00:00 UTC, the day after `to` 00:00 UTC). */
function bounds(from: string, to: string): { start: string; end: string } {
  return { start: `${from}T00:00:00Z`, end: `${addDays(to, 1)}T00:00:00Z` };
}

async function labelsOf(db: Db, by: ReportBreakdown, keys: string[]): Promise<Map<string, string>> {
  const labels = new Map<string, string>();
  if (keys.length === 0) return labels;
  if (by === 'category') for (const k of keys) labels.set(k, categoryLabel(k));
  if (by === 'service') {
    const rows = await db
      .select({ id: service.id, name: service.name })
      .from(service)
      .where(inArray(service.id, keys));
    for (const r of rows) labels.set(r.id, r.name);
  }
  if (by === 'supplier') {
    const ids = keys.filter((k) => k !== MANUAL_SUPPLIER_KEY);
    const rows = ids.length
      ? await db
          .select({ id: supplier.id, name: supplier.name })
          .from(supplier)
          .where(inArray(supplier.id, ids))
      : [];
    for (const r of rows) labels.set(r.id, r.name);
    labels.set(MANUAL_SUPPLIER_KEY, MANUAL_SUPPLIER_LABEL);
  }
  if (by === 'customer') {
    const rows = await db
      .select({ id: user.id, email: user.email })
      .from(user)
      .where(inArray(user.id, keys));
    for (const r of rows) labels.set(r.id, r.email);
  }
  return labels;
}

const byRevenue = (a: { s: Sums; label: string }, b: { s: Sums; label: string }) =>
  a.s.revenue === b.s.revenue
    ? a.label.localeCompare(b.label, 'es')
    : a.s.revenue > b.s.revenue
      ? -1
      : 1;

/** Top-ups in the range by method: the ledger's money in (stripe, manual, voucher). */
async function topupsOf(db: Db, start: string, end: string): Promise<ReportTopup[]> {
  const rows = await queryRows<{ kind: string; amount: string; count: number | string }>(
    db,
    sql`SELECT kind, SUM(amount)::text AS amount, COUNT(*) AS count FROM ledger_transfer
        WHERE kind IN ('topup_stripe', 'topup_manual', 'topup_voucher')
          AND created_at >= ${start}::timestamptz AND created_at < ${end}::timestamptz
        GROUP BY kind`,
  );
  const found = new Map(rows.map((r) => [r.kind.slice('topup_'.length), r]));
  return (['stripe', 'manual', 'voucher'] as TopupMethod[]).map((method) => {
    const r = found.get(method);
    return {
      method,
      label: TOPUP_METHOD_LABELS[method],
      amount: formatAmount(r ? BigInt(r.amount) : 0n),
      count: r ? Number(r.count) : 0,
    };
  });
}

/** GET /api/admin/reports: the report of the orders settled from `from` to `to` (UTC days). */
export async function buildReport(
  db: Db,
  q: { from: string; to: string; period: ReportPeriod; by: ReportBreakdown },
): Promise<Report> {
  const { start, end } = bounds(q.from, q.to);
  // One pass, every grouping hashed in memory (the default work_mem would sort on disk).
  const rows = await db.transaction(async (tx) => {
    await tx.execute(sql`SET LOCAL work_mem = '64MB'`);
    return queryRows<Grouped>(
      tx,
      sql`WITH f AS (
          SELECT ${sql.raw(KEY[q.by])} AS k,
                 date_trunc(${sql.raw(`'${q.period}'`)}, o.settled_at AT TIME ZONE 'UTC')::date AS bucket,
                 o.user_id,
                 ${REVENUE} AS revenue, ${COST} AS cost, ${REFUNDS} AS refunds, ${COUNTED} AS counted
          FROM "order" o
          WHERE o.settled_at >= ${start}::timestamptz AND o.settled_at < ${end}::timestamptz
        )
        SELECT GROUPING(k) AS g_key, GROUPING(bucket) AS g_bucket, k, bucket::text AS bucket, user_id,
               SUM(revenue)::text AS revenue, SUM(cost)::text AS cost, SUM(refunds)::text AS refunds,
               SUM(counted) AS orders
        FROM f
        GROUP BY GROUPING SETS ((k), (bucket), (user_id))`,
    );
  });
  const byKey = new Map<string, Sums>();
  const byBucket = new Map<string, Sums>();
  const byCustomer = new Map<string, Sums>();
  for (const r of rows) {
    if (Number(r.g_key) === 0 && r.k !== null) byKey.set(r.k, sumsOf(r));
    else if (Number(r.g_bucket) === 0 && r.bucket !== null) byBucket.set(r.bucket, sumsOf(r));
    else if (r.user_id !== null) byCustomer.set(r.user_id, sumsOf(r));
  }
  let totals = zero();
  for (const s of byKey.values()) totals = add(totals, s);

  // The breakdown: by group, customers' figures are added up under their group.
  let keyed: { key: string; label: string; s: Sums }[];
  if (q.by === 'group') {
    const groups = await groupsOfCustomers(db, [...byCustomer.keys()]);
    const merged = new Map<string, { key: string; label: string; s: Sums }>();
    for (const [userId, s] of byCustomer) {
      const g = groups.get(userId) ?? { key: 'none', label: 'Sin grupo' };
      const m = merged.get(g.key);
      merged.set(g.key, { key: g.key, label: g.label, s: m ? add(m.s, s) : s });
    }
    keyed = [...merged.values()];
  } else {
    const labels = await labelsOf(db, q.by, [...byKey.keys()]);
    keyed = [...byKey].map(([key, s]) => ({ key, label: labels.get(key) ?? key, s }));
  }
  keyed.sort(byRevenue);

  const top = [...byCustomer]
    .map(([key, s]) => ({ key, label: key, s }))
    .sort((a, b) => byRevenue(a, b))
    .slice(0, TOP_CUSTOMERS);
  const emails = await labelsOf(
    db,
    'customer',
    top.map((t) => t.key),
  );

  const series: ReportPoint[] = periodsOf(q.from, q.to, q.period).map((period) => ({
    period,
    ...figures(byBucket.get(period) ?? zero()),
  }));

  const toRow = (r: { key: string; label: string; s: Sums }): ReportRow => ({
    key: r.key,
    label: r.label,
    ...figures(r.s),
  });
  return {
    from: q.from,
    to: q.to,
    period: q.period,
    by: q.by,
    rows: keyed.map(toRow),
    totals: figures(totals),
    series,
    topCustomers: top.map((t) => toRow({ ...t, label: emails.get(t.key) ?? t.key })),
    topups: await topupsOf(db, start, end),
  };
}
