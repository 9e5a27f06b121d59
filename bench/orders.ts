// npm run bench:orders — orders placed over HTTP against the real PostgreSQL with 1, 16 and 64
// concurrent customers, then the same order transaction run directly in SQL, for the ratio.
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import {
  customerAccounts,
  systemAccount,
  transfer,
} from '../server/features/ledger/ledger.service';
import { imeiFor } from '../tests/setup/imei';
import { fmt, freshDatabase, imeiService, percentile, signInCustomer, startApp } from './setup';

const ORDERS_PER_RUN = Number(process.env.BENCH_ORDERS ?? 1500);
const LEVELS = [1, 16, 64];

const imei = imeiFor;

const { url, database } = await freshDatabase('cometa_bench_orders');
const app = await startApp(database);
const svc = await imeiService(database, { price: 1n, allowRecheck: true, identifier: true });

const customers: { cookie: string; id: string }[] = [];
for (let i = 0; i < Math.max(...LEVELS); i++) {
  const email = `bench${i}@example.com`;
  const cookie = await signInCustomer(app.origin, database, email, 'Bench-Clave-2026!');
  const me = (await (
    await fetch(`${app.origin}/api/me`, { headers: { Cookie: cookie } })
  ).json()) as { id: string };
  await database.db.transaction(async (tx) => {
    const a = await customerAccounts(tx, me.id);
    await transfer(tx, {
      from: await systemAccount(tx, 'adjustments'),
      to: a.available,
      amount: 10_000_000n,
      kind: 'adjustment_credit',
      reference: { type: 'bench', id: me.id },
      idempotencyKey: `bench:${me.id}`,
      description: 'Saldo de benchmark',
    });
  });
  customers.push({ cookie, id: me.id });
}

let serial = 0;
console.log(
  `bench:orders — PostgreSQL, ${ORDERS_PER_RUN} orders per level, one customer per worker\n`,
);
console.log('HTTP POST /api/orders (session, validation, idempotency key, ledger hold, event):');
for (const level of LEVELS) {
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: level }, async (_, w) => {
      const customer = customers[w]!;
      while (next < ORDERS_PER_RUN) {
        next += 1;
        serial += 1;
        const t0 = performance.now();
        const res = await fetch(`${app.origin}/api/orders`, {
          method: 'POST',
          headers: {
            'Content-Type': 'application/json',
            Cookie: customer.cookie,
            Origin: app.origin,
            'Idempotency-Key': randomUUID(),
          },
          body: JSON.stringify({ serviceId: svc.id, fields: { imei: imei(serial) } }),
        });
        await res.arrayBuffer();
        if (res.status !== 201) throw new Error(`order failed: ${res.status}`);
        latencies.push(performance.now() - t0);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  console.log(
    `  ${String(level).padStart(2)} concurrent: ${(ORDERS_PER_RUN / seconds).toFixed(0).padStart(5)} orders/s   p50 ${fmt(percentile(latencies, 50))}   p99 ${fmt(percentile(latencies, 99))}`,
  );
}
await app.close();

// The same writes as one order, straight to PostgreSQL: order row, account locks, guarded
// debit, credit, transfer, two entries, event.
const accounts = new Map<string, { available: string; held: string }>();
for (const c of customers) accounts.set(c.id, await customerAccounts(database.db, c.id));
// PostgreSQL allows 100 connections here: free the app's pool before opening 64 more.
await database.close();
const pool = new pg.Pool({ connectionString: url, max: 64 });
console.log('\nRaw SQL, the same transaction without HTTP, auth or validation:');
const rawResults: Record<number, number> = {};
for (const level of LEVELS) {
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: level }, async (_, w) => {
      const customer = customers[w]!;
      const acc = accounts.get(customer.id)!;
      const client = await pool.connect();
      try {
        while (next < ORDERS_PER_RUN) {
          next += 1;
          serial += 1;
          const t0 = performance.now();
          await client.query('BEGIN');
          const o = await client.query<{ id: string; number: string }>(
            `INSERT INTO "order" (user_id, service_id, category, service_name, quantity, fields, identifier, price, idempotency_key, request_hash)
             VALUES ($1, $2, 'IMEI', 'Consulta IMEI', 1, $3, $4, 1, $5, 'x') RETURNING id, number`,
            [
              customer.id,
              svc.id,
              JSON.stringify({ imei: imei(serial) }),
              imei(serial),
              randomUUID(),
            ],
          );
          const orderId = o.rows[0]!.id;
          const tr = await client.query<{ id: string }>(
            `INSERT INTO ledger_transfer (kind, debit_account_id, credit_account_id, amount, reference_type, reference_id, idempotency_key, description)
             VALUES ('order_hold', $1, $2, 1, 'order', $3, $4, 'bench') RETURNING id`,
            [acc.available, acc.held, orderId, `order:${orderId}:hold`],
          );
          await client.query(
            'SELECT id FROM ledger_account WHERE id IN ($1, $2) ORDER BY id FOR NO KEY UPDATE',
            [acc.available, acc.held],
          );
          const d = await client.query<{ balance: string }>(
            'UPDATE ledger_account SET balance = balance - 1 WHERE id = $1 AND balance >= 1 RETURNING balance',
            [acc.available],
          );
          const cr = await client.query<{ balance: string }>(
            'UPDATE ledger_account SET balance = balance + 1 WHERE id = $1 RETURNING balance',
            [acc.held],
          );
          await client.query(
            'INSERT INTO ledger_entry (transfer_id, account_id, amount, balance_after) VALUES ($1, $2, -1, $3), ($1, $4, 1, $5)',
            [tr.rows[0]!.id, acc.available, d.rows[0]!.balance, acc.held, cr.rows[0]!.balance],
          );
          await client.query(
            `INSERT INTO order_event (order_id, status, actor_id, actor_role) VALUES ($1, 'pending', $2, 'customer')`,
            [orderId, customer.id],
          );
          await client.query('COMMIT');
          latencies.push(performance.now() - t0);
        }
      } finally {
        client.release();
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  rawResults[level] = ORDERS_PER_RUN / seconds;
  console.log(
    `  ${String(level).padStart(2)} concurrent: ${(ORDERS_PER_RUN / seconds).toFixed(0).padStart(5)} orders/s   p50 ${fmt(percentile(latencies, 50))}   p99 ${fmt(percentile(latencies, 99))}`,
  );
}
await pool.end();
