import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '../db/client';

export type RateLimitResult = { allowed: boolean; retryAfter: number | null };

/**
 * Fixed-window counter in the database, so every instance shares it. One statement reads,
 * resets or increments atomically: concurrent requests cannot all pass a stale read.
 */
export async function consumeRateLimit(
  db: Db,
  key: string,
  rule: { window: number; max: number },
  now: number = Date.now(),
): Promise<RateLimitResult> {
  const windowMs = rule.window * 1000;
  const rows = await queryRows<{ count: number; window_start_ms: string | number }>(
    db,
    sql`
    INSERT INTO rate_limit (key, count, window_start_ms)
    VALUES (${key}, 1, ${now})
    ON CONFLICT (key) DO UPDATE SET
      count = CASE WHEN rate_limit.window_start_ms <= ${now - windowMs} THEN 1 ELSE rate_limit.count + 1 END,
      window_start_ms = CASE WHEN rate_limit.window_start_ms <= ${now - windowMs} THEN ${now} ELSE rate_limit.window_start_ms END
    RETURNING count, window_start_ms
  `,
  );
  const row = rows[0];
  if (!row) return { allowed: true, retryAfter: null };
  if (row.count <= rule.max) return { allowed: true, retryAfter: null };
  const resetAt = Number(row.window_start_ms) + windowMs;
  return { allowed: false, retryAfter: Math.max(1, Math.ceil((resetAt - now) / 1000)) };
}

/** Deletes counters whose window ended long ago (called from time to time, not per request). */
export async function pruneRateLimits(
  db: Db,
  olderThanMs: number,
  now = Date.now(),
): Promise<void> {
  await db.execute(sql`DELETE FROM rate_limit WHERE window_start_ms < ${now - olderThanMs}`);
}
