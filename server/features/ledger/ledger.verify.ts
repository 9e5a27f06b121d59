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
 * negative except on credit, where every debit stayed within the credit limit in force when it
 * was made (docs/domain.md §3), and all balances sum to zero.
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
  // 'held' never goes below zero; no customer account without credit is negative either,
  // unless a reversed top-up (refund, chargeback) took it there: that debit is allowed past the
  // floor (docs/domain.md "Payment gateways") and the account is flagged instead.
  const negative = await queryRows<{ id: string; balance: string }>(
    db,
    sql`SELECT id, balance::text AS balance FROM ledger_account
         WHERE user_id IS NOT NULL AND balance < 0 AND (kind <> 'available' OR
               (credit_limit = 0 AND NOT EXISTS
                 (SELECT 1 FROM ledger_credit_limit h WHERE h.account_id = ledger_account.id)
                AND NOT EXISTS
                 (SELECT 1 FROM ledger_entry e JOIN ledger_transfer t ON t.id = e.transfer_id
                   WHERE e.account_id = ledger_account.id AND t.kind = 'topup_reversal')))`,
  );
  for (const n of negative) problems.push(`customer account ${n.id} is negative: ${n.balance}`);
  // Credit lines: each debit that left a customer account below zero stayed within the limit in
  // force when it was made (the last change of the limit recorded before that entry). A limit
  // lowered below an existing debt is not a fault; a debit past the limit then in force is.
  const pastLimit = await queryRows<{
    id: string;
    account_id: string;
    balance_after: string;
    limit_then: string;
  }>(
    db,
    sql`SELECT d.id::text AS id, d.account_id, d.balance_after::text AS balance_after,
               d.limit_then::text AS limit_then
          FROM (SELECT e.id, e.account_id, e.balance_after,
                       COALESCE((SELECT h.credit_limit FROM ledger_credit_limit h
                                  WHERE h.account_id = e.account_id AND h.after_entry_id < e.id
                                  ORDER BY h.after_entry_id DESC, h.id DESC LIMIT 1), 0) AS limit_then
                  FROM ledger_entry e JOIN ledger_account a ON a.id = e.account_id
                  JOIN ledger_transfer t ON t.id = e.transfer_id
                 WHERE a.user_id IS NOT NULL AND e.amount < 0 AND e.balance_after < 0
                   AND t.kind <> 'topup_reversal') d
         WHERE d.balance_after < -d.limit_then`,
  );
  for (const p of pastLimit)
    problems.push(
      `entry ${p.id} took customer account ${p.account_id} to ${p.balance_after}, past its credit limit of ${p.limit_then}`,
    );
  // The limit on the account is the last one its history recorded.
  const limitDrift = await queryRows<{ id: string; credit_limit: string; recorded: string }>(
    db,
    sql`SELECT a.id, a.credit_limit::text AS credit_limit,
               COALESCE((SELECT h.credit_limit FROM ledger_credit_limit h WHERE h.account_id = a.id
                          ORDER BY h.after_entry_id DESC, h.id DESC LIMIT 1), 0)::text AS recorded
          FROM ledger_account a
         WHERE a.credit_limit <> COALESCE((SELECT h.credit_limit FROM ledger_credit_limit h
                                            WHERE h.account_id = a.id
                                            ORDER BY h.after_entry_id DESC, h.id DESC LIMIT 1), 0)`,
  );
  for (const l of limitDrift)
    problems.push(
      `account ${l.id}: credit limit ${l.credit_limit} but its history records ${l.recorded}`,
    );
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
