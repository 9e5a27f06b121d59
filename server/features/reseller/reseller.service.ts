// What the two reseller protocols share: our catalogue as other panels see it (services by their
// stable number), and a customer's orders by number. Orders are placed through the same
// placeOrder as the web (validation, price, hold, duplicate rule, ledger, webhooks).
import { and, asc, eq, inArray } from 'drizzle-orm';
import { CATEGORIES, type CategorySlug } from '../../../shared/categories';
import type { ServiceField } from '../../../shared/schemas/service-fields';
import type { Db } from '../../db/client';
import { order, service } from '../../db/schema/catalogue';
import { serviceRoute } from '../../db/schema/suppliers';
import { isRecord, jsonDepthWithin } from '../../suppliers/dhru-wire';
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

/** Which of these services are bought from suppliers (they have routes). */
export async function routedServiceIds(db: Db, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .selectDistinct({ id: serviceRoute.serviceId })
    .from(serviceRoute)
    .where(inArray(serviceRoute.serviceId, ids));
  return new Set(rows.map((r) => r.id));
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

/**
 * One line of text for a field other panels print into their pages as HTML (DHRU SERVICENAME,
 * GROUPNAME, TIME; SMM name, category): `&`, `<`, `>` and `"` escaped. Panels of this trade
 * print these fields without escaping, so text of ours (or a supplier's) must never arrive there
 * as markup.
 */
export function htmlEscape(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

/** Text for a panel that shows it as HTML (DHRU CODE and INFO, SMM desc): escaped, line breaks as <br>. */
export function textAsHtml(text: string): string {
  return htmlEscape(text).replace(/\r?\n/g, '<br>');
}

/** A JSON value as a protocol field: text as it is, numbers and booleans written out, lists joined. */
function fieldText(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : null;
  if (typeof value === 'boolean') return value ? '1' : '0';
  // `orders: [1, 2, 3]` from a JSON client means what `orders=1,2,3` means in a form.
  if (Array.isArray(value) && value.every((v) => typeof v === 'string' || typeof v === 'number'))
    return value.map(String).join(',');
  return null;
}

/**
 * Reads a protocol request the way its clients send it: the query string (several SMM scripts
 * call with GET), then the body as a form (urlencoded or multipart, which PHP's cURL sends for an
 * array of fields), as JSON (`Content-Type: application/json`), or as urlencoded text sent
 * without a content type. Body fields win over query fields; anything unreadable adds nothing.
 */
export async function readProtocolForm(request: Request): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const [key, value] of new URL(request.url).searchParams) out[key] = value;
  if (request.method === 'GET' || request.method === 'HEAD' || request.body === null) return out;
  const type = request.headers.get('content-type') ?? '';
  try {
    if (/^multipart\/form-data/i.test(type)) {
      for (const [key, value] of await request.formData())
        if (typeof value === 'string') out[key] = value;
      return out;
    }
    const text = await request.text();
    if (/^application\/(?:[\w.+-]+\+)?json/i.test(type) || /^\s*\{/.test(text)) {
      if (!jsonDepthWithin(text)) return out;
      const parsed: unknown = JSON.parse(text);
      if (isRecord(parsed)) {
        for (const [key, value] of Object.entries(parsed)) {
          const field = fieldText(value);
          if (field !== null) out[key] = field;
        }
      }
      return out;
    }
    // Urlencoded, declared or not (a client that forgot the header still sent `key=…&action=…`).
    for (const [key, value] of new URLSearchParams(text)) out[key] = value;
    return out;
  } catch {
    return out;
  }
}
