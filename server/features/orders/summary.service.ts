import { desc, eq, sql } from 'drizzle-orm';
import { formatAmount } from '../../../shared/money';
import { ORDER_STATUSES, type OrderStatus } from '../../../shared/schemas/orders';
import { queryRows, type Db } from '../../db/client';
import { order } from '../../db/schema/catalogue';
import { toOrderDto } from './order-dto';

export type DailySpend = { date: string; amount: string };

/**
 * What the dashboard shows: orders by status, the latest orders, and the spend of the last 30
 * days (orders placed, minus those refunded), day by day in UTC.
 */
export async function orderSummary(db: Db, userId: string, now = new Date()) {
  const counts = await db
    .select({ status: order.status, n: sql<number>`count(*)::int` })
    .from(order)
    .where(eq(order.userId, userId))
    .groupBy(order.status);
  const byStatus = Object.fromEntries(ORDER_STATUSES.map((s) => [s, 0])) as Record<
    OrderStatus,
    number
  >;
  for (const c of counts) byStatus[c.status as OrderStatus] = Number(c.n);
  const latest = await db
    .select()
    .from(order)
    .where(eq(order.userId, userId))
    .orderBy(desc(order.createdAt), desc(order.id))
    .limit(5);
  const since = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - 29));
  const rows = await queryRows<{ day: string; cents: string }>(
    db,
    sql`SELECT to_char(date_trunc('day', created_at AT TIME ZONE 'UTC'), 'YYYY-MM-DD') AS day, SUM(price)::text AS cents
        FROM ${order}
        WHERE user_id = ${userId} AND created_at >= ${since} AND status NOT IN ('rejected', 'cancelled')
        GROUP BY 1`,
  );
  const byDay = new Map(rows.map((r) => [r.day, BigInt(r.cents)]));
  const spend: DailySpend[] = [];
  let total = 0n;
  for (let i = 0; i < 30; i++) {
    const d = new Date(since.getTime() + i * 86_400_000).toISOString().slice(0, 10);
    const cents = byDay.get(d) ?? 0n;
    total += cents;
    spend.push({ date: d, amount: formatAmount(cents) });
  }
  return {
    byStatus,
    latest: latest.map((r) => toOrderDto(r)),
    spend30d: spend,
    spend30dTotal: formatAmount(total),
  };
}
