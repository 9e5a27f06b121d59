// Reports (docs/domain.md, Cost, margin and reports). Every figure comes from the orders settled
// in the range (`order.settled_at`, written in the transaction that moved their money, so the
// ledger agrees to the cent): finished days from their daily summaries (`order_day_summary`,
// docs/decisions/0021-report-summaries.md), the other days from the orders themselves, with the
// same expressions. Top-ups come from the ledger.
import { inArray, sql } from 'drizzle-orm';
import { categoryLabel } from '../../../shared/categories';
import { formatAmount } from '../../../shared/money';
import {
  TOPUP_METHOD_LABELS,
  TOPUP_METHODS,
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
import { groupsOfCustomers, NO_GROUP_KEY, NO_GROUP_LABEL } from './customer-group';

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

/** The dimensions days are summarised by (`group` is read from `customer`). */
type Dimension = 'category' | 'service' | 'supplier' | 'customer';
const DIMENSION_OF: Record<ReportBreakdown, Dimension> = {
  category: 'category',
  service: 'service',
  supplier: 'supplier',
  customer: 'customer',
  group: 'customer',
};

/** Each dimension's key of one order, in SQL (alias `o`). */
const KEY: Record<Dimension, string> = {
  category: 'o.category',
  service: 'o.service_id::text',
  supplier: `COALESCE(o.supplier_id::text, '${MANUAL_SUPPLIER_KEY}')`,
  customer: 'o.user_id',
};

/**
 * A day is summarised once it ended this long ago (by the database's clock): a transaction that
 * settled an order before midnight (`settled_at` is its start time) has committed by then.
 */
export const SUMMARY_MARGIN = '1 hour';

/** The advisory lock class of a report day (its key: days since 2000-01-01). */
const REPORT_DAY_LOCK = 21021;

type Grouped = {
  dim: string;
  k: string | null;
  bucket: string | null;
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
        WHERE kind IN ('topup_stripe', 'topup_paypal', 'topup_crypto', 'topup_mercadopago',
                       'topup_manual', 'topup_voucher')
          AND created_at >= ${start}::timestamptz AND created_at < ${end}::timestamptz
        GROUP BY kind`,
  );
  const found = new Map(rows.map((r) => [r.kind.slice('topup_'.length), r]));
  return TOPUP_METHODS.map((method: TopupMethod) => {
    const r = found.get(method);
    return {
      method,
      label: TOPUP_METHOD_LABELS[method],
      amount: formatAmount(r ? BigInt(r.amount) : 0n),
      count: r ? Number(r.count) : 0,
    };
  });
}

/**
 * Summarises the finished days from `from` to `to` that are not yet (docs/decisions/0021): each
 * day's row in `report_day` and its figures per dimension and key in `order_day_summary`, in one
 * transaction. Two callers at once: the second finds the day taken and skips it. Returns the days
 * it summarised.
 */
export async function summariseDays(db: Db, from: string, to: string): Promise<string[]> {
  const done = await db.transaction(async (tx) => {
    await tx.execute(sql`SET LOCAL work_mem = '64MB'`);
    const days = await queryRows<{ day: string }>(
      tx,
      sql`INSERT INTO report_day (day)
          SELECT d::date FROM generate_series(${from}::date,
            LEAST(${to}::date, ((now() - ${SUMMARY_MARGIN}::interval) AT TIME ZONE 'UTC')::date - 1),
            interval '1 day') AS d
          ON CONFLICT DO NOTHING
          RETURNING day::text AS day`,
    );
    if (days.length === 0) return [];
    const list = days.map((d) => d.day).sort();
    // Wait for any transaction changing these days' orders to finish (the trigger of migration
    // report_day_reopen holds the same locks, shared), so the read below sees its change. The
    // days are in order, as the trigger takes them: no deadlock.
    await tx.execute(
      sql`SELECT pg_advisory_xact_lock(${REPORT_DAY_LOCK}, d - date '2000-01-01')
          FROM unnest(${`{${list.join(',')}}`}::date[]) AS d`,
    );
    const ranges = dayRanges(list);
    await tx.execute(
      sql`INSERT INTO order_day_summary (dimension, day, key, revenue, cost, refunds, orders)
          SELECT CASE WHEN GROUPING(category) = 0 THEN 'category'
                      WHEN GROUPING(service) = 0 THEN 'service'
                      WHEN GROUPING(supplier) = 0 THEN 'supplier' ELSE 'customer' END,
                 day, COALESCE(category, service, supplier, customer),
                 SUM(revenue), SUM(cost), SUM(refunds), SUM(counted)
          FROM (
            SELECT (o.settled_at AT TIME ZONE 'UTC')::date AS day,
                   ${sql.raw(KEY.category)} AS category, ${sql.raw(KEY.service)} AS service,
                   ${sql.raw(KEY.supplier)} AS supplier, ${sql.raw(KEY.customer)} AS customer,
                   ${REVENUE} AS revenue, ${COST} AS cost, ${REFUNDS} AS refunds, ${COUNTED} AS counted
            FROM "order" o
            WHERE ${settledIn(ranges)}
          ) f
          GROUP BY GROUPING SETS ((day, category), (day, service), (day, supplier), (day, customer))`,
    );
    return list;
  });
  // Fresh statistics, so reports aggregate the summaries by hashing (stale ones, as after the
  // first summary of a long history, make the planner sort hundreds of thousands of rows).
  if (done.length > 0) {
    // Without the right to analyse (not the table's owner) autovacuum does it later.
    await db.execute(sql`ANALYZE order_day_summary`).catch(() => undefined);
  }
  return done;
}

/**
 * The background close (queue `reports-close`, hourly): summarises every finished day since the
 * first settled order that no report has summarised yet, so the first report after a quiet
 * spell does not pay for it. The same work a report does for its own range; idempotent.
 */
export async function closeFinishedDays(db: Db): Promise<string[]> {
  const [first] = await queryRows<{ day: string | null }>(
    db,
    sql`SELECT (min(settled_at) AT TIME ZONE 'UTC')::date::text AS day FROM "order"
        WHERE settled_at IS NOT NULL`,
  );
  if (!first?.day) return [];
  const today = new Date().toISOString().slice(0, 10);
  return summariseDays(db, first.day, today);
}

/** Sorted days as ranges of consecutive days: [first, last]. */
function dayRanges(days: string[]): [string, string][] {
  const out: [string, string][] = [];
  for (const d of days) {
    const last = out[out.length - 1];
    if (last && addDays(last[1], 1) === d) last[1] = d;
    else out.push([d, d]);
  }
  return out;
}

/** The orders settled on these ranges of days, in SQL (alias `o`; each range uses the index). */
function settledIn(ranges: [string, string][]) {
  if (ranges.length === 0) return sql`false`;
  return sql.join(
    ranges.map(([a, b]) => {
      const { start, end } = bounds(a, b);
      return sql`(o.settled_at >= ${start}::timestamptz AND o.settled_at < ${end}::timestamptz)`;
    }),
    sql` OR `,
  );
}

/** The days from `from` to `to` (inclusive). */
function daysOf(from: string, to: string): string[] {
  const out: string[] = [];
  for (let d = from; d <= to; d = addDays(d, 1)) out.push(d);
  return out;
}

/**
 * GET /api/admin/reports: the report of the orders settled from `from` to `to` (UTC days).
 * Summarised days are read from `order_day_summary`, the others (today, the last hour's
 * yesterday, a day reopened by a late change) from the orders; `direct` reads every day from the
 * orders (the tests compare both).
 */
export async function buildReport(
  db: Db,
  q: { from: string; to: string; period: ReportPeriod; by: ReportBreakdown },
  options: { direct?: boolean } = {},
): Promise<Report> {
  const { start, end } = bounds(q.from, q.to);
  if (!options.direct) await summariseDays(db, q.from, q.to);
  const dim = DIMENSION_OF[q.by];
  const dims: Dimension[] = dim === 'customer' ? ['customer'] : [dim, 'customer'];
  const bucket = (day: string) => sql.raw(`date_trunc('${q.period}', ${day})::date`);
  // One snapshot for the days summarised and the orders of the others; every grouping hashed in
  // memory (the default work_mem would sort on disk).
  const rows = await db.transaction(async (tx) => {
    await tx.execute(sql`SET TRANSACTION ISOLATION LEVEL REPEATABLE READ`);
    await tx.execute(sql`SET LOCAL work_mem = '64MB'`);
    const closed = options.direct
      ? new Set<string>()
      : new Set(
          (
            await queryRows<{ day: string }>(
              tx,
              sql`SELECT day::text AS day FROM report_day WHERE day BETWEEN ${q.from}::date AND ${q.to}::date`,
            )
          ).map((r) => r.day),
        );
    const open = dayRanges(daysOf(q.from, q.to).filter((d) => !closed.has(d)));
    // The figures of these dimensions per key and day: summaries, then the open days' orders.
    const source = (of: Dimension[]) => sql`
        SELECT s.dimension AS dim, s.key AS k, s.day,
               s.revenue, s.cost, s.refunds, s.orders AS counted
        FROM order_day_summary s
        WHERE s.dimension IN (${sql.join(
          of.map((d) => sql`${d}::text`),
          sql`, `,
        )})
          AND s.day BETWEEN ${q.from}::date AND ${q.to}::date AND ${closed.size > 0 ? sql`true` : sql`false`}
        UNION ALL
        SELECT v.dim, v.k, (o.settled_at AT TIME ZONE 'UTC')::date AS day,
               ${REVENUE} AS revenue, ${COST} AS cost, ${REFUNDS} AS refunds, ${COUNTED} AS counted
        FROM "order" o CROSS JOIN LATERAL (VALUES ${sql.join(
          of.map((d) => sql`(${d}::text, ${sql.raw(KEY[d])})`),
          sql`, `,
        )}) AS v(dim, k)
        WHERE ${settledIn(open)}`;
    // Rows per key of the breakdown and per customer; the series from the categories (every
    // dimension adds up to the same daily totals, and categories are the fewest rows).
    return queryRows<Grouped>(
      tx,
      sql`SELECT dim, k, NULL::text AS bucket,
                 SUM(revenue)::text AS revenue, SUM(cost)::text AS cost,
                 SUM(refunds)::text AS refunds, SUM(counted) AS orders
          FROM (${source(dims)}) f
          GROUP BY dim, k
          UNION ALL
          SELECT 'series', NULL, ${bucket('f.day')}::text,
                 SUM(revenue)::text, SUM(cost)::text, SUM(refunds)::text, SUM(counted)
          FROM (${source(['category'])}) f
          GROUP BY 3`,
    );
  });
  const byKey = new Map<string, Sums>();
  const byBucket = new Map<string, Sums>();
  const byCustomer = new Map<string, Sums>();
  for (const r of rows) {
    if (r.bucket !== null) byBucket.set(r.bucket, sumsOf(r));
    else if (r.k !== null) {
      if (r.dim === dim) byKey.set(r.k, sumsOf(r));
      if (r.dim === 'customer') byCustomer.set(r.k, sumsOf(r));
    }
  }
  let totals = zero();
  for (const s of byKey.values()) totals = add(totals, s);

  // The breakdown: by group, customers' figures are added up under their group.
  let keyed: { key: string; label: string; s: Sums }[];
  if (q.by === 'group') {
    const groups = await groupsOfCustomers(db, [...byCustomer.keys()]);
    const merged = new Map<string, { key: string; label: string; s: Sums }>();
    for (const [userId, s] of byCustomer) {
      const g = groups.get(userId) ?? { key: NO_GROUP_KEY, label: NO_GROUP_LABEL };
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
