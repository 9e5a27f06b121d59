import { sql } from 'drizzle-orm';
import { integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/**
 * The server processes using this database, each with a heartbeat (docs/decisions/
 * 0017-crash-recovery.md). An instance whose heartbeat is old, or whose row is gone, is dead:
 * the sends it had claimed go to review and the jobs it held are taken over at once.
 */
export const appInstance = pgTable('app_instance', {
  /** Chosen by the process when it starts; a restarted process is a new instance. */
  id: uuid('id').primaryKey(),
  host: text('host').notNull(),
  pid: integer('pid').notNull(),
  startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
  /** Its last heartbeat (the database's clock). */
  seenAt: timestamp('seen_at', { withTimezone: true }).notNull().defaultNow(),
  /** Jobs of the periodic queues (supplier-tick, supplier-sync) it is running now. */
  heldJobs: uuid('held_jobs')
    .array()
    .notNull()
    .default(sql`'{}'::uuid[]`),
});
