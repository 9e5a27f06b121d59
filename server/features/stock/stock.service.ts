// Stock of a service (decision 0023): uploads (sealed, deduplicated by a keyed hash, partial add),
// counts and the masked list, the audited export of unsold items, and replacing a sold item.
import { randomUUID } from 'node:crypto';
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import { textProblem } from '../../../shared/text';
import {
  STOCK_ITEM_MAX_LENGTH,
  STOCK_REFUSALS,
  STOCK_TOO_MANY_LINES,
  STOCK_UPLOAD_MAX_ITEMS,
  type DeliveryMode,
  type StockItemState,
  type StockSummary,
  type StockUploadResult,
} from '../../../shared/schemas/stock';
import { queryRows, type Db } from '../../db/client';
import { order, orderEvent, service } from '../../db/schema/catalogue';
import { stockItem } from '../../db/schema/stock';
import { AppError } from '../../lib/errors';
import { recordAudit } from '../audit/audit.service';
import type { OrderRow } from '../orders/order-dto';
import { queueNotification } from '../notifications/events';
import { queueOrderUpdate } from '../webhooks/enqueue';
import { checkLowStock, claimItem, markSoldItemBad } from './stock-claim';
import { itemHash, lastFour, openItem, sealItem, type StockKeys } from './stock-crypto';

const NOT_FOUND = 'El servicio no existe.';
/** Rows written per INSERT (10 000 items in 20 statements). */
const INSERT_CHUNK = 500;
/** Items listed (masked) in the summary, newest first. */
const LISTED_ITEMS = 100;

async function serviceOf(db: Db, serviceId: string) {
  const [row] = await db
    .select({
      id: service.id,
      name: service.name,
      delivery: service.delivery,
      lowStockThreshold: service.lowStockThreshold,
    })
    .from(service)
    .where(eq(service.id, serviceId));
  if (!row) throw new AppError('NOT_FOUND', NOT_FOUND);
  return row;
}

/**
 * The lines of an upload, numbered from 1 as in the text: a byte order mark and one final line
 * break are not lines; each line is trimmed (spaces around a code are never part of it).
 */
export function stockLines(text: string): { line: number; item: string }[] {
  const body = text.replace(/^\uFEFF/, '').replace(/\r?\n$/, '');
  if (body === '') return [];
  return body.split(/\r?\n/).map((raw, i) => ({ line: i + 1, item: raw.trim() }));
}

/**
 * Adds the good lines of an upload and refuses the others with their line number and a Spanish
 * reason (partial add): empty, too long, control characters, repeated in the upload, already in
 * this service's stock. More than 10 000 lines refuses the whole upload.
 */
export async function uploadStock(
  db: Db,
  keys: StockKeys,
  adminId: string,
  serviceId: string,
  text: string,
  ipAddress: string | null,
): Promise<StockUploadResult> {
  await serviceOf(db, serviceId);
  const lines = stockLines(text);
  if (lines.length === 0)
    throw new AppError('VALIDATION_FAILED', undefined, {
      file: 'El archivo está vacío: escribe un artículo por línea.',
    });
  if (lines.length > STOCK_UPLOAD_MAX_ITEMS)
    throw new AppError('VALIDATION_FAILED', undefined, { file: STOCK_TOO_MANY_LINES });

  const refused: { line: number; reason: string }[] = [];
  const candidates: { line: number; item: string; hash: string }[] = [];
  const seen = new Set<string>();
  for (const { line, item } of lines) {
    if (item === '') refused.push({ line, reason: STOCK_REFUSALS.empty });
    else if ([...item].length > STOCK_ITEM_MAX_LENGTH)
      refused.push({ line, reason: STOCK_REFUSALS.tooLong });
    else if (textProblem(item, { singleLine: true }))
      refused.push({ line, reason: STOCK_REFUSALS.invalidText });
    else {
      const hash = itemHash(keys, serviceId, item);
      if (seen.has(hash)) refused.push({ line, reason: STOCK_REFUSALS.duplicateInUpload });
      else {
        seen.add(hash);
        candidates.push({ line, item, hash });
      }
    }
  }

  const added = await db.transaction(async (tx) => {
    // Against the stock already there, by hash (nothing is decrypted).
    const existing = new Set<string>();
    for (let i = 0; i < candidates.length; i += 1000) {
      const hashes = candidates.slice(i, i + 1000).map((c) => c.hash);
      const rows = await tx
        .select({ hash: stockItem.hash })
        .from(stockItem)
        .where(and(eq(stockItem.serviceId, serviceId), inArray(stockItem.hash, hashes)));
      for (const r of rows) existing.add(r.hash);
    }
    const fresh = candidates.filter((c) => {
      if (!existing.has(c.hash)) return true;
      refused.push({ line: c.line, reason: STOCK_REFUSALS.duplicateInStock });
      return false;
    });
    let count = 0;
    for (let i = 0; i < fresh.length; i += INSERT_CHUNK) {
      const chunk = fresh.slice(i, i + INSERT_CHUNK);
      const values = chunk.map((c) => {
        const id = randomUUID();
        return {
          id,
          serviceId,
          sealed: sealItem(keys, id, c.item),
          hash: c.hash,
          last4: lastFour(c.item),
          uploadedBy: adminId,
        };
      });
      // A concurrent upload of the same item: the unique index keeps one, the other is refused.
      const inserted = await tx
        .insert(stockItem)
        .values(values)
        .onConflictDoNothing()
        .returning({ hash: stockItem.hash });
      const got = new Set(inserted.map((r) => r.hash));
      for (const c of chunk)
        if (!got.has(c.hash))
          refused.push({ line: c.line, reason: STOCK_REFUSALS.duplicateInStock });
      count += inserted.length;
    }
    // Back above the threshold: the next crossing alerts again.
    await tx.execute(
      sql`UPDATE service s SET low_stock_alerted = false
          WHERE s.id = ${serviceId}::uuid AND s.low_stock_alerted AND (
            SELECT count(*) FROM (SELECT 1 FROM stock_item i
              WHERE i.service_id = s.id AND i.state = 'available'
              LIMIT s.low_stock_threshold + 1) a) > s.low_stock_threshold`,
    );
    await recordAudit(tx, {
      actorId: adminId,
      action: 'stock.upload',
      targetType: 'service',
      targetId: serviceId,
      before: null,
      after: { added: count, refused: refused.length, lines: lines.length },
      ipAddress,
    });
    return count;
  });
  refused.sort((a, b) => a.line - b.line);
  return { added, refused };
}

/** Counts by state, the threshold and the newest items (last 4 characters only). */
export async function stockSummary(db: Db, serviceId: string): Promise<StockSummary> {
  const svc = await serviceOf(db, serviceId);
  const counts = await db
    .select({ state: stockItem.state, n: sql<number>`count(*)::int` })
    .from(stockItem)
    .where(eq(stockItem.serviceId, serviceId))
    .groupBy(stockItem.state);
  const by = (state: StockItemState) => Number(counts.find((c) => c.state === state)?.n ?? 0);
  const items = await db
    .select({
      id: stockItem.id,
      last4: stockItem.last4,
      state: stockItem.state,
      orderId: stockItem.orderId,
      orderNumber: order.number,
      createdAt: stockItem.createdAt,
      soldAt: stockItem.soldAt,
    })
    .from(stockItem)
    .leftJoin(order, eq(order.id, stockItem.orderId))
    .where(eq(stockItem.serviceId, serviceId))
    .orderBy(desc(stockItem.position))
    .limit(LISTED_ITEMS);
  return {
    available: by('available'),
    sold: by('sold'),
    bad: by('bad'),
    lowStockThreshold: svc.lowStockThreshold,
    delivery: svc.delivery as DeliveryMode,
    items: items.map((i) => ({
      id: i.id,
      last4: i.last4,
      state: i.state as StockItemState,
      orderId: i.orderId,
      orderNumber: i.orderNumber,
      createdAt: i.createdAt.toISOString(),
      soldAt: i.soldAt?.toISOString() ?? null,
    })),
  };
}

/**
 * The unsold items in full (admins only): the one way staff read an item after uploading it,
 * so every download is audited with how many items it held.
 */
export async function exportUnsold(
  db: Db,
  keys: StockKeys,
  adminId: string,
  serviceId: string,
  ipAddress: string | null,
): Promise<{ name: string; items: { item: string; createdAt: Date }[] }> {
  const svc = await serviceOf(db, serviceId);
  const rows = await db
    .select({ id: stockItem.id, sealed: stockItem.sealed, createdAt: stockItem.createdAt })
    .from(stockItem)
    .where(and(eq(stockItem.serviceId, serviceId), eq(stockItem.state, 'available')))
    .orderBy(stockItem.position);
  const items = rows.map((r) => ({
    item: openItem(keys, r.id, r.sealed) ?? '(no se pudo descifrar)',
    createdAt: r.createdAt,
  }));
  await recordAudit(db, {
    actorId: adminId,
    action: 'stock.export',
    targetType: 'service',
    targetId: serviceId,
    before: null,
    after: { items: items.length },
    ipAddress,
  });
  return { name: svc.name, items };
}

export const NOT_A_STOCK_ORDER =
  'Solo se puede reemplazar el artículo de una orden completada entregada desde stock.';
export const NOTHING_TO_REPLACE_WITH =
  'Agotado: no queda otro artículo en el stock de este servicio para reemplazarlo.';

/**
 * Replaces the item of a completed stock order with another available one: the first is marked
 * bad (both stay with the order), the order's result becomes the new item, the customer's
 * timeline and webhooks hear of it, and the change is audited with last 4 characters only.
 */
export async function replaceItem(
  db: Db,
  keys: StockKeys,
  staffId: string,
  orderId: string,
  note: string | undefined,
  ipAddress: string | null,
): Promise<{ row: OrderRow; lowStock: boolean }> {
  return db.transaction(async (tx) => {
    const [current] = await tx
      .select()
      .from(order)
      .where(eq(order.id, orderId))
      .for('no key update');
    if (!current) throw new AppError('NOT_FOUND', 'La orden no existe.');
    if (!current.fromStock || current.status !== 'completed')
      throw new AppError('CONFLICT', NOT_A_STOCK_ORDER);
    const oldLast4 = await markSoldItemBad(tx, orderId);
    const item = await claimItem(tx, keys, current.serviceId, orderId);
    if (!item) throw new AppError('OUT_OF_STOCK', NOTHING_TO_REPLACE_WITH);
    const [row] = await tx
      .update(order)
      .set({ result: item.text, updatedAt: new Date() })
      .where(eq(order.id, orderId))
      .returning();
    if (!row) throw new AppError('NOT_FOUND', 'La orden no existe.');
    await tx.insert(orderEvent).values({
      orderId,
      status: 'completed',
      kind: 'status',
      note: note
        ? `Artículo reemplazado por otro del stock: ${note}`
        : 'Artículo reemplazado por otro del stock.',
      actorId: staffId,
      actorRole: 'admin',
    });
    await queueOrderUpdate(tx, row.id, row.userId);
    await queueNotification(tx, { kind: 'order.completed', orderId: row.id });
    await recordAudit(tx, {
      actorId: staffId,
      action: 'stock.replace',
      targetType: 'order',
      targetId: orderId,
      before: { last4: oldLast4 },
      after: { last4: lastFour(item.text), ...(note ? { note } : {}) },
      ipAddress,
    });
    const lowStock = await checkLowStock(tx, current.serviceId);
    return { row, lowStock };
  });
}

/** Whether any item of this order was delivered from stock (for tests and the web's hints). */
export async function itemsOfOrder(db: Db, orderId: string) {
  return queryRows<{ state: string; last4: string }>(
    db,
    sql`SELECT state, last4 FROM stock_item WHERE order_id = ${orderId}::uuid ORDER BY sold_at`,
  );
}
