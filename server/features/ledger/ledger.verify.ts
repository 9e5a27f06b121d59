import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '../../db/client';

export type LedgerReport = {
  accounts: number;
  transfers: number;
  entries: number;
  problems: string[];
};

/**
 * Checks the ledger's invariants: every cached balance equals the sum of its entries, every
 * transfer has exactly two entries that cancel out and match it, no customer balance is
 * negative, and all balances sum to zero.
 */
export async function verifyLedger(db: Db): Promise<LedgerReport> {
  const problems: string[] = [];
  const [counts] = await queryRows<{ accounts: string; transfers: string; entries: string }>(
    db,
    sql`SELECT (SELECT count(*) FROM ledger_account) AS accounts,
               (SELECT count(*) FROM ledger_transfer) AS transfers,
               (SELECT count(*) FROM ledger_entry) AS entries`,
  );
  const mismatched = await queryRows<{ id: string; balance: string; sum: string }>(
    db,
    sql`SELECT a.id, a.balance::text AS balance, COALESCE(SUM(e.amount), 0)::text AS sum
        FROM ledger_account a LEFT JOIN ledger_entry e ON e.account_id = a.id
        GROUP BY a.id, a.balance HAVING a.balance <> COALESCE(SUM(e.amount), 0)`,
  );
  for (const m of mismatched)
    problems.push(`account ${m.id}: balance ${m.balance} but entries sum to ${m.sum}`);
  const unbalanced = await queryRows<{ id: string; n: string; total: string }>(
    db,
    sql`SELECT t.id, count(e.id)::text AS n, COALESCE(SUM(e.amount), 0)::text AS total
        FROM ledger_transfer t LEFT JOIN ledger_entry e ON e.transfer_id = t.id
        GROUP BY t.id
        HAVING count(e.id) <> 2 OR COALESCE(SUM(e.amount), 0) <> 0
           OR COALESCE(SUM(e.amount) FILTER (WHERE e.account_id = t.credit_account_id), 0) <> t.amount
           OR COALESCE(SUM(e.amount) FILTER (WHERE e.account_id = t.debit_account_id), 0) <> -t.amount`,
  );
  for (const u of unbalanced)
    problems.push(`transfer ${u.id}: ${u.n} entries summing to ${u.total}`);
  const negative = await queryRows<{ id: string; balance: string }>(
    db,
    sql`SELECT id, balance::text AS balance FROM ledger_account WHERE user_id IS NOT NULL AND balance < 0`,
  );
  for (const n of negative) problems.push(`customer account ${n.id} is negative: ${n.balance}`);
  const [total] = await queryRows<{ total: string }>(
    db,
    sql`SELECT COALESCE(SUM(balance), 0)::text AS total FROM ledger_account`,
  );
  if (total && total.total !== '0') problems.push(`balances sum to ${total.total}, not 0`);
  return {
    accounts: Number(counts?.accounts ?? 0),
    transfers: Number(counts?.transfers ?? 0),
    entries: Number(counts?.entries ?? 0),
    problems,
  };
}
