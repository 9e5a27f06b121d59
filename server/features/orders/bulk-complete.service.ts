import { eq, inArray, or } from 'drizzle-orm';
import {
  parseResultLines,
  type BulkCompleteLine,
  type BulkCompletePreview,
  type BulkCompleteResult,
  type BulkPreviewLine,
  type ResultReference,
} from '../../../shared/bulk-results';
import { ORDER_STATUS_LABELS, type OrderStatus } from '../../../shared/schemas/orders';
import type { Db } from '../../db/client';
import { user } from '../../db/schema/auth';
import { order } from '../../db/schema/catalogue';
import { orderDispatch } from '../../db/schema/suppliers';
import { AppError } from '../../lib/errors';
import type { OrderRow } from './order-dto';
import { completeOrder } from './orders.service';

const IN_FLIGHT = new Set(['pending', 'processing']);

type Candidate = Pick<OrderRow, 'id' | 'number' | 'identifier' | 'status' | 'serviceName'> & {
  customerEmail: string;
  customerName: string;
  dispatchState: string | null;
};

type Refusal = { code: string; message: string };

/** One pasted line resolved: the order it names (when one does) and whether it can complete. */
type PlannedLine = {
  line: number;
  reference: string;
  result: string | null;
  order: Candidate | null;
  refusal: Refusal | null;
};

function describe(ref: ResultReference): string {
  return ref.kind === 'number' ? `#${ref.number}` : ref.value;
}

/** "No hay ninguna orden con «ABC»", and a hint when the reference is a word, not a datum. */
function notFound(ref: Extract<ResultReference, { kind: 'identifier' }>): Refusal {
  const message = /\d/.test(ref.value)
    ? `No hay ninguna orden con el dato «${ref.value}».`
    : `«${ref.value}» no es un número de orden ni un IMEI, y ninguna orden tiene ese dato. Empieza la línea con el número de orden (#123) o el IMEI.`;
  return { code: 'NOT_FOUND', message };
}

/** An order no longer in flight: nothing to complete. */
function finished(number: number, status: string | null): string {
  const label = ORDER_STATUS_LABELS[status as OrderStatus] as string | undefined;
  return label
    ? `La orden #${number} ya está ${label.toLowerCase()}: no cambia nada.`
    : `La orden #${number} ya está completada, rechazada o cancelada: no cambia nada.`;
}

/**
 * Resolves every line of a paste against the orders, in two indexed lookups for the whole paste:
 * the order each line names, and whether completing it would do anything. Nothing changes.
 */
async function planLines(db: Db, text: string): Promise<PlannedLine[]> {
  const parsed = parseResultLines(text);
  const numbers = parsed.flatMap((l) => (l.ok && l.ref.kind === 'number' ? [l.ref.number] : []));
  const identifiers = parsed.flatMap((l) =>
    l.ok && l.ref.kind === 'identifier' ? [l.ref.value, l.ref.value.toUpperCase()] : [],
  );

  const candidates: Candidate[] =
    numbers.length + identifiers.length === 0
      ? []
      : await db
          .select({
            id: order.id,
            number: order.number,
            identifier: order.identifier,
            status: order.status,
            serviceName: order.serviceName,
            customerEmail: user.email,
            customerName: user.name,
            dispatchState: orderDispatch.state,
          })
          .from(order)
          .innerJoin(user, eq(user.id, order.userId))
          .leftJoin(orderDispatch, eq(orderDispatch.orderId, order.id))
          .where(
            or(
              numbers.length ? inArray(order.number, numbers) : undefined,
              identifiers.length ? inArray(order.identifier, [...new Set(identifiers)]) : undefined,
            ),
          );

  const resolve = (ref: ResultReference): { order: Candidate | null; refusal: Refusal | null } => {
    if (ref.kind === 'number') {
      const found = candidates.find((c) => c.number === ref.number);
      return found
        ? { order: found, refusal: null }
        : {
            order: null,
            refusal: { code: 'NOT_FOUND', message: `No existe la orden #${ref.number}.` },
          };
    }
    const upper = ref.value.toUpperCase();
    const matching = candidates.filter((c) => c.identifier?.toUpperCase() === upper);
    const inFlight = matching.filter((c) => IN_FLIGHT.has(c.status));
    if (inFlight.length === 1 && inFlight[0]) return { order: inFlight[0], refusal: null };
    if (inFlight.length > 1)
      return {
        order: null,
        refusal: {
          code: 'CONFLICT',
          message: `Hay ${inFlight.length} órdenes en curso con ${ref.value}; usa el número de orden (${inFlight
            .map((c) => `#${c.number}`)
            .join(', ')}).`,
        },
      };
    const latest = matching.sort((a, b) => b.number - a.number)[0];
    if (latest)
      return {
        order: latest,
        refusal: { code: 'CONFLICT', message: `Ninguna orden con ${ref.value} sigue en curso.` },
      };
    return { order: null, refusal: notFound(ref) };
  };

  const planned: PlannedLine[] = [];
  const seen = new Map<string, number>();
  for (const line of parsed) {
    if (!line.ok) {
      planned.push({
        line: line.line,
        reference: line.raw.slice(0, 40),
        result: null,
        order: null,
        refusal: { code: 'VALIDATION_FAILED', message: line.message },
      });
      continue;
    }
    const reference = describe(line.ref);
    const target = resolve(line.ref);
    let refusal = target.refusal;
    const found = target.order;
    if (!refusal && found) {
      const earlier = seen.get(found.id);
      if (earlier !== undefined)
        refusal = {
          code: 'CONFLICT',
          message: `La orden #${found.number} ya se completa en la línea ${earlier}.`,
        };
      else if (!IN_FLIGHT.has(found.status))
        refusal = { code: 'CONFLICT', message: finished(found.number, found.status) };
      else if (found.dispatchState === 'sending')
        refusal = {
          code: 'CONFLICT',
          message: `La orden #${found.number} se está enviando al proveedor en este momento: espera unos segundos y revisa de nuevo.`,
        };
      if (!refusal) seen.set(found.id, line.line);
    }
    planned.push({ line: line.line, reference, result: line.result, order: found, refusal });
  }
  return planned;
}

/**
 * What completing a paste would do, line by line, without changing anything: the order each
 * line names (number, customer, service, current state) and whether it would be completed with
 * the line's result, or why the line would change nothing.
 */
export async function previewBulkComplete(db: Db, text: string): Promise<BulkCompletePreview> {
  const lines: BulkPreviewLine[] = (await planLines(db, text)).map((p) => ({
    line: p.line,
    reference: p.reference,
    action: p.refusal ? 'skip' : 'complete',
    order: p.order
      ? {
          id: p.order.id,
          number: p.order.number,
          customerEmail: p.order.customerEmail,
          customerName: p.order.customerName,
          serviceName: p.order.serviceName,
          identifier: p.order.identifier,
          status: p.order.status,
          statusLabel: ORDER_STATUS_LABELS[p.order.status as OrderStatus] ?? p.order.status,
        }
      : null,
    result: p.refusal ? null : p.result,
    message: p.refusal
      ? p.refusal.message
      : `Se completará con el resultado «${(p.result ?? '').slice(0, 200)}» y se avisará al cliente.`,
  }));
  const ready = lines.filter((l) => l.action === 'complete').length;
  return { lines, ready, skipped: lines.length - ready };
}

/**
 * Completes the orders named in a pasted list, each line on its own: a line that cannot be
 * resolved or whose order already finished is answered with the reason and changes nothing,
 * the others are completed (held price captured) in their own transaction, exactly once.
 */
export async function bulkCompleteOrders(
  db: Db,
  adminId: string,
  text: string,
  onCompleted: (row: OrderRow) => void,
): Promise<BulkCompleteResult> {
  const results: BulkCompleteLine[] = [];
  for (const p of await planLines(db, text)) {
    if (p.refusal || !p.order || p.result === null) {
      const refusal = p.refusal ?? { code: 'NOT_FOUND', message: 'No hay ninguna orden.' };
      results.push({ line: p.line, reference: p.reference, ok: false, ...refusal });
      continue;
    }
    try {
      const row = await completeOrder(db, adminId, p.order.id, p.result);
      onCompleted(row);
      results.push({
        line: p.line,
        reference: p.reference,
        ok: true,
        orderId: row.id,
        number: row.number,
      });
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      results.push({
        line: p.line,
        reference: p.reference,
        ok: false,
        code: err.code,
        message:
          err.code === 'CONFLICT' && err.message.startsWith('La orden ya')
            ? finished(p.order.number, null)
            : err.message,
      });
    }
  }
  const completed = results.filter((r) => r.ok).length;
  return { results, completed, failed: results.length - completed };
}
