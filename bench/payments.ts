// npm run bench:payments — crypto top-ups end to end over HTTP against the real PostgreSQL, with a
// local fake of NOWPayments: starting a top-up (pending payment + invoice at the fake), then the
// signed IPN of every invoice delivered BENCH_COPIES times at once (NOWPayments retries, and
// deliveries overlap), at 16 and 64 concurrent deliveries. Each top-up must be credited exactly
// once, with one receipt, the receipt numbers of the year gap-free, and the ledger clean.
// BENCH_TOPUPS top-ups per level (default 300), BENCH_COPIES (default 5), BENCH_LEVELS (16,64).
import { startFakeNowPayments } from '../server/features/payments/crypto/fake-nowpayments';
import { verifyLedger } from '../server/features/ledger/ledger.verify';
import { fmt, freshDatabase, fundedCustomers, percentile, startApps } from './setup';

const TOPUPS = Number(process.env.BENCH_TOPUPS ?? 300);
const COPIES = Number(process.env.BENCH_COPIES ?? 5);
const LEVELS = (process.env.BENCH_LEVELS ?? '16,64').split(',').map(Number);
if (LEVELS.some((n) => !Number.isInteger(n) || n < 1)) throw new Error('bad BENCH_LEVELS');
if (!Number.isInteger(COPIES) || COPIES < 1) throw new Error('bad BENCH_COPIES');

const fake = await startFakeNowPayments();
const { url, database } = await freshDatabase('cometa_bench_payments');
const app = await startApps(url, {
  NOWPAYMENTS_API_KEY: fake.apiKey,
  NOWPAYMENTS_IPN_SECRET: fake.ipnSecret,
  NOWPAYMENTS_API_BASE: fake.baseUrl,
});
// A customer may start 10 card/crypto/PayPal/Mercado Pago top-ups in 10 minutes: top-up i of a
// level is started by customer ⌊i / 10⌋ of that level's own group.
const PER_CUSTOMER = 10;
const GROUP = Math.ceil(TOPUPS / PER_CUSTOMER);
const customers = await fundedCustomers(app.origin, database, GROUP * LEVELS.length);
console.log(
  `bench:payments — PostgreSQL, ${TOPUPS} crypto top-ups per level, each IPN delivered ${COPIES}× at once, ${app.count} server instance(s)\n`,
);

type Stats = { perSecond: number; p50: number; p99: number };

/** Runs `total` calls with `level` workers; throughput and latency percentiles. */
async function measure(
  level: number,
  total: number,
  call: (worker: number, i: number) => Promise<void>,
): Promise<Stats> {
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: level }, async (_, w) => {
      while (next < total) {
        const i = next++;
        const t0 = performance.now();
        await call(w, i);
        latencies.push(performance.now() - t0);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    perSecond: total / seconds,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
  };
}

let credited = 0;
for (const [index, level] of LEVELS.entries()) {
  // 1. Start the top-ups (the customer's POST: pending payment, invoice at NOWPayments).
  const invoices: string[] = [];
  const start = await measure(level, TOPUPS, async (w, i) => {
    const origin = app.originFor(w);
    const customer = customers[index * GROUP + Math.floor(i / PER_CUSTOMER)]!;
    const res = await fetch(`${origin}/api/payments/crypto`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        Cookie: customer.cookie,
        Origin: origin,
      },
      body: JSON.stringify({ amount: '10.00' }),
    });
    const body = (await res.json()) as { invoiceUrl?: string };
    if (res.status !== 201 || !body.invoiceUrl)
      throw new Error(`top-up failed: ${res.status} ${JSON.stringify(body)}`);
    const iid = new URL(body.invoiceUrl).searchParams.get('iid');
    if (!iid) throw new Error(`no invoice id in ${body.invoiceUrl}`);
    invoices.push(iid);
  });
  // 2. The signed `finished` IPN of every invoice, COPIES deliveries at once per invoice.
  const deliveries = invoices.flatMap((iid) => {
    const signed = fake.ipn(iid, { status: 'finished' });
    return Array.from({ length: COPIES }, () => signed);
  });
  const ipn = await measure(level, deliveries.length, async (w, i) => {
    const signed = deliveries[i]!;
    const res = await fetch(`${app.originFor(w)}/api/webhooks/nowpayments`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'x-nowpayments-sig': signed.signature },
      body: signed.body,
    });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`IPN answered ${res.status}`);
  });
  credited += invoices.length;
  console.log(
    `  ${String(level).padStart(2)} concurrent: start ${start.perSecond.toFixed(0).padStart(4)} top-ups/s (p50 ${fmt(start.p50)}, p99 ${fmt(start.p99)});` +
      ` IPN ${ipn.perSecond.toFixed(0).padStart(4)} deliveries/s (p50 ${fmt(ipn.p50)}, p99 ${fmt(ipn.p99)})`,
  );
}
await app.close();
await fake.close();

const [counts] = (
  await database.executeSql(
    `SELECT (SELECT count(*)::int FROM payment WHERE method = 'crypto' AND status = 'completed') AS completed,
            (SELECT count(*)::int FROM ledger_transfer WHERE kind = 'topup_crypto') AS transfers,
            (SELECT count(*)::int FROM receipt) AS receipts,
            (SELECT count(DISTINCT seq)::int FROM receipt) AS distinct_numbers,
            (SELECT COALESCE(max(seq), 0)::int FROM receipt) AS last_number`,
  )
).rows as {
  completed: number;
  transfers: number;
  receipts: number;
  distinct_numbers: number;
  last_number: number;
}[];
const report = await verifyLedger(database.db);
await database.close();
const ok =
  counts !== undefined &&
  counts.completed === credited &&
  counts.transfers === credited &&
  counts.receipts === credited &&
  counts.distinct_numbers === credited &&
  counts.last_number === credited &&
  report.problems.length === 0;
console.log(
  `\nTop-ups credited: ${counts?.completed} of ${credited} (${counts?.transfers} ledger credits); receipts: ${counts?.receipts}, numbered 1…${counts?.last_number} without gaps: ${counts?.distinct_numbers === counts?.last_number ? 'yes' : 'NO'}; ledger: ${report.problems.length === 0 ? 'clean' : report.problems.join('; ')}`,
);
if (!ok) process.exit(1);
