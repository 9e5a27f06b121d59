import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/client';
import { user } from '../../db/schema/auth';
import { openTestDatabase, dbTargets } from '../../../tests/setup/test-db';
import { AppError } from '../../lib/errors';
import {
  balances,
  customerAccounts,
  systemAccount,
  transfer,
  type TransferKind,
} from './ledger.service';
import { verifyLedger } from './ledger.verify';

async function newCustomer(database: Database): Promise<string> {
  const id = randomUUID();
  await database.db
    .insert(user)
    .values({ id, name: 'Cliente', email: `${id}@example.com`, emailVerified: true });
  return id;
}

/** The database's own message of a failed statement (Drizzle wraps it in `cause`). */
async function dbError(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (err) {
    const cause = (err as { cause?: { message?: string } }).cause;
    return cause?.message ?? String(err);
  }
  throw new Error('expected the statement to fail');
}

async function credit(database: Database, userId: string, amount: bigint) {
  await database.db.transaction(async (tx) => {
    const accounts = await customerAccounts(tx, userId);
    await transfer(tx, {
      from: await systemAccount(tx, 'funding:manual'),
      to: accounts.available,
      amount,
      kind: 'topup_manual',
      reference: { type: 'test', id: randomUUID() },
      idempotencyKey: `test-credit:${randomUUID()}`,
      description: 'Recarga de prueba',
    });
  });
}

describe.each(dbTargets())('ledger on %s', (target) => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase(target);
  });
  afterAll(async () => {
    await database.close();
  });

  it('moves money between two accounts with two balancing entries', async () => {
    const u = await newCustomer(database);
    await credit(database, u, 1250n);
    expect(await balances(database.db, u)).toEqual({ available: 1250n, held: 0n });
    const report = await verifyLedger(database.db);
    expect(report.problems).toEqual([]);
  });

  it('200 parallel spends against a balance that covers 20: exactly 20 succeed, never negative', async () => {
    const u = await newCustomer(database);
    await credit(database, u, 2000n);
    const results = await Promise.allSettled(
      Array.from({ length: 200 }, (_, i) =>
        database.db.transaction(async (tx) => {
          const a = await customerAccounts(tx, u);
          return transfer(tx, {
            from: a.available,
            to: a.held,
            amount: 100n,
            kind: 'order_hold',
            reference: { type: 'test', id: String(i) },
            idempotencyKey: `spend:${u}:${i}`,
            description: 'Orden de prueba',
          });
        }),
      ),
    );
    const ok = results.filter((r) => r.status === 'fulfilled');
    const refused = results.filter((r) => r.status === 'rejected');
    expect(ok).toHaveLength(20);
    expect(refused).toHaveLength(180);
    for (const r of refused) expect((r.reason as AppError).code).toBe('INSUFFICIENT_FUNDS');
    expect(await balances(database.db, u)).toEqual({ available: 0n, held: 2000n });
    expect((await verifyLedger(database.db)).problems).toEqual([]);
  });

  it('a replayed idempotency key moves nothing, even 10 at once', async () => {
    const u = await newCustomer(database);
    const key = `replay:${u}`;
    const results = await Promise.all(
      Array.from({ length: 10 }, () =>
        database.db.transaction(async (tx) => {
          const a = await customerAccounts(tx, u);
          return transfer(tx, {
            from: await systemAccount(tx, 'funding:stripe'),
            to: a.available,
            amount: 500n,
            kind: 'topup_stripe',
            reference: { type: 'test', id: u },
            idempotencyKey: key,
            description: 'Recarga con tarjeta',
          });
        }),
      ),
    );
    expect(new Set(results.map((r) => r.transferId)).size).toBe(1);
    expect(results.filter((r) => !r.replayed)).toHaveLength(1);
    expect((await balances(database.db, u)).available).toBe(500n);
  });

  it('refuses a replay of a key with another amount', async () => {
    const u = await newCustomer(database);
    await credit(database, u, 100n);
    const args = async (amount: bigint) =>
      database.db.transaction(async (tx) => {
        const a = await customerAccounts(tx, u);
        return transfer(tx, {
          from: a.available,
          to: a.held,
          amount,
          kind: 'order_hold',
          reference: { type: 't', id: '1' },
          idempotencyKey: `k:${u}`,
          description: 'x',
        });
      });
    await args(50n);
    await expect(args(60n)).rejects.toMatchObject({ code: 'CONFLICT' });
  });

  it('keeps entries append-only and customer balances above their floor at the database level', async () => {
    expect(
      await dbError(database.db.execute(sql`UPDATE ledger_entry SET amount = amount + 1`)),
    ).toMatch(/append-only/);
    expect(await dbError(database.db.execute(sql`DELETE FROM ledger_transfer`))).toMatch(
      /append-only/,
    );
    const u = await newCustomer(database);
    const a = await customerAccounts(database.db, u);
    expect(
      await dbError(
        database.db.execute(sql`UPDATE ledger_account SET balance = -1 WHERE id = ${a.available}`),
      ),
    ).toMatch(/insufficient funds/);
    expect(
      await dbError(
        database.db.execute(sql`UPDATE ledger_account SET balance = -1 WHERE id = ${a.held}`),
      ),
    ).toMatch(/insufficient funds/);
    // Behind the trigger, the CHECK: a 'held' account is never negative, whatever the path.
    await database.db.execute(
      sql`ALTER TABLE ledger_account DISABLE TRIGGER ledger_account_credit_floor`,
    );
    try {
      expect(
        await dbError(
          database.db.execute(sql`UPDATE ledger_account SET balance = -1 WHERE id = ${a.held}`),
        ),
      ).toMatch(/ledger_account_held_non_negative/);
    } finally {
      await database.db.execute(
        sql`ALTER TABLE ledger_account ENABLE TRIGGER ledger_account_credit_floor`,
      );
    }
    expect(
      await dbError(
        database.db.execute(sql`UPDATE ledger_account SET credit_limit = 5 WHERE id = ${a.held}`),
      ),
    ).toMatch(/ledger_account_credit_limit_valid/);
  });

  it('ledger:verify reports a cached balance that no longer matches its entries', async () => {
    const u = await newCustomer(database);
    await credit(database, u, 700n);
    const a = await customerAccounts(database.db, u);
    // Tampering outside transfer(): the balance moves, the entries do not.
    await database.db.execute(
      sql`UPDATE ledger_account SET balance = balance + 1 WHERE id = ${a.available}`,
    );
    const report = await verifyLedger(database.db);
    expect(report.problems).toContain(`account ${a.available}: balance 701 but entries sum to 700`);
    expect(report.problems).toContain('balances sum to 1, not 0');
    await database.db.execute(
      sql`UPDATE ledger_account SET balance = balance - 1 WHERE id = ${a.available}`,
    );
    expect((await verifyLedger(database.db)).problems).toEqual([]);
  });

  it('property: random credits, debits, holds, releases and adjustments keep every invariant', async () => {
    const u = await newCustomer(database);
    type Op = {
      kind: 'credit' | 'debit' | 'hold' | 'release' | 'capture' | 'adjust_up' | 'adjust_down';
      amount: number;
    };
    let operations = 0;
    let refusedCount = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            kind: fc.constantFrom(
              'credit',
              'debit',
              'hold',
              'release',
              'capture',
              'adjust_up',
              'adjust_down',
            ),
            amount: fc.integer({ min: 1, max: 5000 }),
          }),
          { minLength: 1, maxLength: 15 },
        ),
        async (ops: Op[]) => {
          for (const op of ops) {
            operations += 1;
            const before = await balances(database.db, u);
            try {
              await database.db.transaction(async (tx) => {
                const a = await customerAccounts(tx, u);
                const amount = BigInt(op.amount);
                const plan: Record<Op['kind'], [string, string, TransferKind]> = {
                  credit: [await systemAccount(tx, 'funding:manual'), a.available, 'topup_manual'],
                  debit: [a.available, await systemAccount(tx, 'adjustments'), 'adjustment_debit'],
                  hold: [a.available, a.held, 'order_hold'],
                  release: [a.held, a.available, 'order_release'],
                  capture: [a.held, await systemAccount(tx, 'revenue'), 'order_capture'],
                  adjust_up: [
                    await systemAccount(tx, 'adjustments'),
                    a.available,
                    'adjustment_credit',
                  ],
                  adjust_down: [
                    a.available,
                    await systemAccount(tx, 'adjustments'),
                    'adjustment_debit',
                  ],
                };
                const [from, to, kind] = plan[op.kind];
                await transfer(tx, {
                  from,
                  to,
                  amount,
                  kind,
                  reference: { type: 'prop', id: String(operations) },
                  idempotencyKey: `prop:${randomUUID()}`,
                  description: op.kind,
                });
              });
            } catch (err) {
              if (!(err instanceof AppError) || err.code !== 'INSUFFICIENT_FUNDS') throw err;
              refusedCount += 1;
              // A refused movement changes nothing.
              expect(await balances(database.db, u)).toEqual(before);
            }
            const after = await balances(database.db, u);
            expect(after.available >= 0n && after.held >= 0n).toBe(true);
            const report = await verifyLedger(database.db);
            expect(report.problems).toEqual([]);
          }
        },
      ),
      { numRuns: target === 'pglite' ? 25 : 15 },
    );
    console.info(
      `ledger property on ${target}: ${operations} operations, ${refusedCount} refused for funds, 0 violations`,
    );
  });
});
