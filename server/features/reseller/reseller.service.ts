// What the two reseller protocols share: our catalogue as other panels see it (services by their
// stable number), and a customer's orders by number. Orders are placed through the same
// placeOrder as the web (validation, price, hold, duplicate rule, ledger, webhooks).
import { and, asc, eq, inArray } from 'drizzle-orm';
import { CATEGORIES, type CategorySlug } from '../../../shared/categories';
import type { ServiceField } from '../../../shared/schemas/service-fields';
import type { Db } from '../../db/client';
import { order, service } from '../../db/schema/catalogue';
import type { OrderRow } from '../orders/order-dto';

export type ServiceRow = typeof service.$inferSelect;

export function categoryLabel(slug: string): string {
  return CATEGORIES.find((c) => c.slug === (slug as CategorySlug))?.label ?? slug;
}

/** Active services, in catalogue order (category, then position). */
export async function activeServices(db: Db): Promise<ServiceRow[]> {
  const rows = await db
    .select()
    .from(service)
    .where(eq(service.active, true))
    .orderBy(asc(service.sortOrder), asc(service.name), asc(service.id));
  const order = new Map(CATEGORIES.map((c, i) => [c.slug as string, i]));
  return rows.sort((a, b) => (order.get(a.category) ?? 99) - (order.get(b.category) ?? 99));
}

/** An active service by its number; null for anything else (a malformed number too). */
export async function serviceByNumber(db: Db, raw: string | null): Promise<ServiceRow | null> {
  const text = raw?.trim() ?? '';
  if (!/^\d{1,15}$/.test(text)) return null;
  const [row] = await db
    .select()
    .from(service)
    .where(and(eq(service.number, Number(text)), eq(service.active, true)));
  return row ?? null;
}

/** The field a protocol's identifier box fills: the IMEI field, else the identifier field. */
export function identifierField(fields: ServiceField[]): ServiceField | undefined {
  return fields.find((f) => f.type === 'imei') ?? fields.find((f) => f.identifier);
}

/** A customer's orders by number (others' orders are simply not found). */
export async function ordersByNumber(
  db: Db,
  userId: string,
  numbers: number[],
): Promise<Map<number, OrderRow>> {
  if (numbers.length === 0) return new Map();
  const rows = await db
    .select()
    .from(order)
    .where(and(eq(order.userId, userId), inArray(order.number, numbers)));
  return new Map(rows.map((r) => [r.number, r]));
}

/** An order number as a protocol sends it ("9001", 9001); null when it is not one. */
export function orderNumber(raw: unknown): number | null {
  const text = typeof raw === 'number' ? String(raw) : typeof raw === 'string' ? raw.trim() : '';
  if (!/^\d{1,15}$/.test(text)) return null;
  const n = Number(text);
  return Number.isSafeInteger(n) && n > 0 ? n : null;
}

/** Text for a panel that shows it as HTML (DHRU CODE): escaped, line breaks as <br>. */
export function textAsHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/\r?\n/g, '<br>');
}

/** Reads a protocol request's form (urlencoded or multipart); {} for anything else. */
export async function readProtocolForm(request: Request): Promise<Record<string, string>> {
  const type = request.headers.get('content-type') ?? '';
  if (!/^(?:application\/x-www-form-urlencoded|multipart\/form-data)/i.test(type)) return {};
  try {
    const form = await request.formData();
    const out: Record<string, string> = {};
    for (const [key, value] of form) if (typeof value === 'string') out[key] = value;
    return out;
  } catch {
    return {};
  }
}
