// npm run bench:reports — GET /api/admin/reports' service (buildReport, what the handler calls)
// on the real PostgreSQL with 1,000,000 orders seeded in SQL: a 90-day report per breakdown and
// period, p50/p95 of BENCH_RUNS runs each, after the finished days are summarised (timed once).
// Two shapes of history: the orders spread over a year (a quarter of them in the 90 days), then
// all of them inside the 90 days.
//   BENCH_ORDERS (default 1000000), BENCH_RUNS (default 15).
import { sql } from 'drizzle-orm';
import { queryRows, type Database } from '../server/db/client';
import { buildReport, summariseDays } from '../server/features/reports/reports.service';
import {
  REPORT_BREAKDOWNS,
  REPORT_PERIODS,
  type ReportBreakdown,
  type ReportPeriod,
} from '../shared/schemas/reports';
import { fmt, freshDatabase, percentile } from './setup';

const ORDERS = Number(process.env.BENCH_ORDERS ?? 1_000_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const CUSTOMERS = 5_000;
const SERVICES = 300;
const SUPPLIERS = 12;
const TOPUPS = 100_000;
const BUDGET_MS = 500;

const { database } = await freshDatabase('cometa_bench_reports');
const db = database.db;

async function seed(spanDays: number): Promise<void> {
  const t0 = performance.now();
  await db.execute(sql`TRUNCATE "order", report_day CASCADE`);
  // Orders settled over the last `spanDays` days: 85 % completed, 5 % partial, 10 % rejected;
  // a cost for most, a supplier for most, customers and services skewed (a few buy most).
  await db.execute(sql`
    INSERT INTO "order" (user_id, service_id, category, service_name, quantity, fields, price,
                         status, remains, cost, supplier_id, settled_at, created_at, updated_at)
    SELECT 'bench-user-' || (floor(power(random(), 2) * ${CUSTOMERS}))::int,
           s.id, s.category, s.name, 10, '{}'::jsonb, s.price,
           CASE WHEN r < 0.85 THEN 'completed' WHEN r < 0.90 THEN 'partial' ELSE 'rejected' END,
           CASE WHEN r >= 0.85 AND r < 0.90 THEN (g % 10) END,
           CASE WHEN r >= 0.90 THEN 0 WHEN g % 7 = 0 THEN NULL ELSE s.price * 8 / 10 END,
           CASE WHEN g % 5 = 0 THEN NULL ELSE sup.id END,
           at, at, at
    FROM (
      SELECT g, random() AS r,
             now() - (random() * ${spanDays} * interval '1 day') AS at,
             1 + (floor(power(random(), 1.5) * ${SERVICES}))::int AS svc,
             1 + (g % ${SUPPLIERS}) AS supn
      FROM generate_series(1, ${ORDERS}) AS g
    ) o
    JOIN (SELECT id, name, category, price, row_number() OVER (ORDER BY number) AS n FROM service) s
      ON s.n = o.svc
    JOIN (SELECT id, row_number() OVER (ORDER BY name) AS n FROM supplier) sup ON sup.n = o.supn`);
  await db.execute(sql`VACUUM ANALYZE "order"`);
  console.log(
    `  seeded ${ORDERS.toLocaleString('en')} orders over ${spanDays} days in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );
}

async function setUp(d: Database): Promise<void> {
  await d.db.execute(sql`
    INSERT INTO "user" (id, name, email, email_verified)
    SELECT 'bench-user-' || g, 'Cliente ' || g, 'cliente' || g || '@example.com', true
    FROM generate_series(0, ${CUSTOMERS - 1}) AS g`);
  const categories = ['IMEI', 'unlock', 'licenses', 'streaming', 'gaming', 'social', 'cleanimei'];
  await d.db.execute(sql`
    INSERT INTO service (category, name, description, delivery_time, price, fields)
    SELECT (${sql.raw(`ARRAY[${categories.map((c) => `'${c}'`).join(',')}]`)})[1 + g % 7],
           'Servicio ' || g, 'Benchmark', '1 día', 100 + (g * 37) % 5000, '[]'::jsonb
    FROM generate_series(1, ${SERVICES}) AS g`);
  await d.db.execute(sql`
    INSERT INTO supplier (name, protocol, url, api_key_sealed, api_key_hint)
    SELECT 'Proveedor ' || g, 'dhru', 'https://example.com/' || g, 'sealed', 'abcd'
    FROM generate_series(1, ${SUPPLIERS}) AS g`);
  // Top-ups: movements from the funding accounts (balances are not what is measured here).
  await d.db.execute(sql`
    INSERT INTO ledger_account (kind) VALUES ('funding:stripe'), ('funding:manual'),
      ('funding:voucher'), ('adjustments') ON CONFLICT DO NOTHING`);
  await d.db.execute(sql`
    INSERT INTO ledger_transfer (kind, debit_account_id, credit_account_id, amount, reference_type,
                                 reference_id, idempotency_key, description, created_at)
    SELECT 'topup_' || m, (SELECT id FROM ledger_account WHERE kind = 'funding:' || m AND user_id IS NULL),
           (SELECT id FROM ledger_account WHERE kind = 'adjustments' AND user_id IS NULL),
           1000 + g % 9000, 'bench', g::text, 'bench-topup-' || g, 'Recarga',
           now() - (random() * 365 * interval '1 day')
    FROM (SELECT g, (ARRAY['stripe','manual','voucher'])[1 + g % 3] AS m
          FROM generate_series(1, ${TOPUPS}) AS g) t`);
  await d.db.execute(sql`VACUUM ANALYZE`);
}

function day(offset: number): string {
  return new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
}

async function measure(label: string): Promise<boolean> {
  const from = day(-89);
  const to = day(0);
  // The finished days are summarised once (what the first report after them does); then every
  // report reads the summaries and today's orders.
  const t0 = performance.now();
  const closed = await summariseDays(db, from, to);
  console.log(
    `\n  summarised ${closed.length} finished days in ${((performance.now() - t0) / 1000).toFixed(1)} s (once)`,
  );
  const [count] = await queryRows<{ n: number }>(
    db,
    sql`SELECT count(*)::int AS n FROM "order" WHERE settled_at >= ${`${from}T00:00:00Z`}::timestamptz`,
  );
  console.log(
    `${label}: 90-day report ${from}..${to} (${(count?.n ?? 0).toLocaleString('en')} orders in range), ${RUNS} runs each`,
  );
  console.log('  by        period   p50        p95        rows');
  let ok = true;
  for (const by of REPORT_BREAKDOWNS as readonly ReportBreakdown[]) {
    for (const period of REPORT_PERIODS as readonly ReportPeriod[]) {
      const times: number[] = [];
      let rows = 0;
      await buildReport(db, { from, to, period, by }); // warm
      for (let i = 0; i < RUNS; i++) {
        const t0 = performance.now();
        const report = await buildReport(db, { from, to, period, by });
        times.push(performance.now() - t0);
        rows = report.rows.length;
      }
      times.sort((a, b) => a - b);
      const p95 = percentile(times, 95);
      if (p95 >= BUDGET_MS) ok = false;
      console.log(
        `  ${by.padEnd(9)} ${period.padEnd(8)} ${fmt(percentile(times, 50)).padEnd(10)} ${fmt(p95).padEnd(10)} ${rows}`,
      );
    }
  }
  return ok;
}

console.log(
  `bench:reports — PostgreSQL, ${ORDERS.toLocaleString('en')} orders, ${CUSTOMERS} customers, ${SERVICES} services, ${SUPPLIERS} suppliers, ${TOPUPS.toLocaleString('en')} top-ups; budget p95 < ${BUDGET_MS} ms`,
);
await setUp(database);
await seed(365);
const spread = await measure('History of a year');
await seed(90);
const packed = await measure('All of them in the 90 days');
await database.close();
console.log(
  `\n${spread && packed ? 'PASS' : 'FAIL'}: every p95 ${spread && packed ? 'under' : 'NOT under'} ${BUDGET_MS} ms`,
);
process.exit(spread && packed ? 0 : 1);
