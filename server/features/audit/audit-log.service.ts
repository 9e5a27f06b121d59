// Reading the audit log (GET /api/admin/audit): newest first, filtered, in keyset pages. The log
// itself is append-only: the database refuses UPDATE, DELETE and TRUNCATE on it (migrations
// 0002 and 0018).
import { sql, type SQL } from 'drizzle-orm';
import {
  AUDIT_PAGE_SIZE,
  type AuditItem,
  type AuditPage,
  type AuditQuery,
} from '../../../shared/schemas/staff';
import { queryRows, type Db } from '../../db/client';
import { AppError } from '../../lib/errors';

type Row = {
  id: string;
  actor_id: string | null;
  actor_name: string | null;
  actor_email: string | null;
  actor_role: string | null;
  action: string;
  target_type: string;
  target_id: string;
  before: unknown;
  after: unknown;
  ip_address: string | null;
  created_at: string | Date;
  created_text: string;
  order_number: number | string | null;
};

const BAD_CURSOR = 'El cursor de la página no es válido.';

function readCursor(cursor: string): { at: string; id: string } {
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  const [at, id, extra] = text.split('|');
  if (
    extra !== undefined ||
    !at ||
    !id ||
    !/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(\.\d{1,6})?[+-]\d{2}(:\d{2})?$/.test(at) ||
    !/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(id)
  )
    throw new AppError('BAD_REQUEST', BAD_CURSOR);
  return { at, id };
}

function writeCursor(row: Row): string {
  return Buffer.from(`${row.created_text}|${row.id}`, 'utf8').toString('base64url');
}

/** The back-office page of what a row is about, when there is one. */
export function targetPath(type: string, id: string, orderNumber: number | null): string | null {
  switch (type) {
    case 'order':
      return orderNumber === null
        ? null
        : `/admin/ordenes?${new URLSearchParams({ status: 'todas', q: String(orderNumber) })}`;
    case 'user':
      return `/admin/clientes/${encodeURIComponent(id)}`;
    case 'staff':
    case 'staff_invitation':
      return '/admin/personal';
    case 'service':
      return '/admin/servicios';
    case 'supplier':
      return '/admin/proveedores';
    case 'payment':
    case 'manual_method':
    case 'voucher_batch':
      return '/admin/pagos';
    case 'snippet':
      return '/admin/respuestas';
    case 'announcement':
      return '/admin/anuncios';
    case 'refill':
      return '/admin/ordenes';
    default:
      return null;
  }
}

function iso(value: string | Date): string {
  return (value instanceof Date ? value : new Date(value)).toISOString();
}

export async function listAudit(db: Db, query: AuditQuery): Promise<AuditPage> {
  const where: SQL[] = [];
  const actor = query.actor?.trim();
  if (actor)
    where.push(
      actor.includes('@') ? sql`u.email = ${actor.toLowerCase()}` : sql`a.actor_id = ${actor}`,
    );
  const action = query.action?.trim();
  if (action)
    where.push(
      action.endsWith('.')
        ? sql`a.action LIKE ${`${action.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`}`
        : sql`a.action = ${action}`,
    );
  if (query.targetType?.trim()) where.push(sql`a.target_type = ${query.targetType.trim()}`);
  if (query.targetId?.trim()) where.push(sql`a.target_id = ${query.targetId.trim()}`);
  if (query.from) where.push(sql`a.created_at >= ${query.from}::timestamptz`);
  if (query.to)
    where.push(
      /^\d{4}-\d{2}-\d{2}$/.test(query.to)
        ? sql`a.created_at < (${query.to}::date + 1)::timestamptz`
        : sql`a.created_at < ${query.to}::timestamptz`,
    );
  if (query.cursor) {
    const c = readCursor(query.cursor);
    where.push(sql`(a.created_at, a.id) < (${c.at}::timestamptz, ${c.id}::uuid)`);
  }
  const limit = AUDIT_PAGE_SIZE;
  const rows = await queryRows<Row>(
    db,
    sql`SELECT a.id, a.actor_id, u.name AS actor_name, u.email AS actor_email, a.actor_role,
          a.action, a.target_type, a.target_id, a.before, a.after, a.ip_address, a.created_at,
          a.created_at::text AS created_text, o.number AS order_number
        FROM audit_log a
        LEFT JOIN "user" u ON u.id = a.actor_id
        LEFT JOIN "order" o ON a.target_type = 'order' AND o.id::text = a.target_id
        ${where.length ? sql`WHERE ${sql.join(where, sql` AND `)}` : sql``}
        ORDER BY a.created_at DESC, a.id DESC
        LIMIT ${limit + 1}`,
  );
  const page = rows.slice(0, limit);
  const items: AuditItem[] = page.map((r) => ({
    id: r.id,
    actor:
      r.actor_id && r.actor_email !== null
        ? {
            id: r.actor_id,
            name: r.actor_name ?? '',
            email: r.actor_email,
            role: r.actor_role,
          }
        : null,
    action: r.action,
    targetType: r.target_type,
    targetId: r.target_id,
    targetPath: targetPath(
      r.target_type,
      r.target_id,
      r.order_number === null ? null : Number(r.order_number),
    ),
    before: r.before ?? null,
    after: r.after ?? null,
    ipAddress: r.ip_address,
    createdAt: iso(r.created_at),
  }));
  return {
    items,
    nextCursor: rows.length > limit && page.length ? writeCursor(page[page.length - 1]!) : null,
  };
}
