import { sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { user } from '../../db/schema/auth';
import { auditLog } from '../../db/schema/payments';

export type AuditInput = {
  /** Null for the system's own changes. */
  actorId: string | null;
  action: string;
  targetType: string;
  targetId: string;
  before?: unknown;
  after?: unknown;
  ipAddress?: string | null;
};

function plain(value: unknown): unknown {
  // bigint is not JSON: store amounts as decimal strings of cents.
  return value === undefined
    ? null
    : JSON.parse(
        JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v)),
      );
}

/**
 * Writes one audit row, in the caller's transaction so it commits with the action. The row keeps
 * the actor's role at that moment (read from their account in the same statement).
 */
export async function recordAudit(tx: Db | Tx, input: AuditInput): Promise<void> {
  await tx.insert(auditLog).values({
    actorId: input.actorId,
    actorRole:
      input.actorId === null
        ? null
        : sql`(SELECT ${user.role} FROM ${user} WHERE ${user.id} = ${input.actorId})`,
    action: input.action,
    targetType: input.targetType,
    targetId: input.targetId,
    before: plain(input.before),
    after: plain(input.after),
    ipAddress: input.ipAddress ?? null,
  });
}
