import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '../db/client';
import { DISPATCH_STATES } from '../../shared/schemas/suppliers';
import type { JobQueue } from './queue';

/** Queue depth for /metrics: jobs per queue, and orders per forwarding state. */
export async function queueGauges(db: Db, jobs: JobQueue): Promise<string[]> {
  const depth = await jobs.depth();
  const states = await queryRows<{ state: string; n: string }>(
    db,
    sql`SELECT state, count(*) AS n FROM order_dispatch WHERE state <> 'done' GROUP BY state`,
  );
  const byState = new Map(states.map((r) => [r.state, Number(r.n)]));
  return [
    '# HELP cometa_jobs_queued Jobs waiting or running, by queue.',
    '# TYPE cometa_jobs_queued gauge',
    ...Object.entries(depth).map(([queue, n]) => `cometa_jobs_queued{queue="${queue}"} ${n}`),
    '# HELP cometa_dispatch_orders Orders being forwarded to suppliers, by state.',
    '# TYPE cometa_dispatch_orders gauge',
    ...DISPATCH_STATES.filter((s) => s !== 'done').map(
      (state) => `cometa_dispatch_orders{state="${state}"} ${byState.get(state) ?? 0}`,
    ),
  ];
}
