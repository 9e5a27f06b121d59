import { inArray, or } from 'drizzle-orm';
import {
  parseResultLines,
  type BulkCompleteLine,
  type BulkCompleteResult,
  type ResultReference,
} from '../../../shared/bulk-results';
import type { Db } from '../../db/client';
import { order } from '../../db/schema/catalogue';
import { AppError } from '../../lib/errors';
import type { OrderRow } from './order-dto';
import { completeOrder } from './orders.service';

const IN_FLIGHT = new Set(['pending', 'processing']);

type Candidate = Pick<OrderRow, 'id' | 'number' | 'identifier' | 'status'>;

function describe(ref: ResultReference): string {
  return ref.kind === 'number' ? `#${ref.number}` : ref.value;
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
  const parsed = parseResultLines(text);
  const numbers = parsed.flatMap((l) => (l.ok && l.ref.kind === 'number' ? [l.ref.number] : []));
  const identifiers = parsed.flatMap((l) =>
    l.ok && l.ref.kind === 'identifier' ? [l.ref.value, l.ref.value.toUpperCase()] : [],
  );

  // Two indexed lookups for the whole paste, not one query a line.
  const candidates: Candidate[] =
    numbers.length + identifiers.length === 0
      ? []
      : await db
          .select({
            id: order.id,
            number: order.number,
            identifier: order.identifier,
            status: order.status,
          })
          .from(order)
          .where(
            or(
              numbers.length ? inArray(order.number, numbers) : undefined,
              identifiers.length ? inArray(order.identifier, [...new Set(identifiers)]) : undefined,
            ),
          );

  const resolve = (ref: ResultReference): Candidate | { code: string; message: string } => {
    if (ref.kind === 'number') {
      const found = candidates.find((c) => c.number === ref.number);
      return found ?? { code: 'NOT_FOUND', message: `No existe la orden #${ref.number}.` };
    }
    const upper = ref.value.toUpperCase();
    const matching = candidates.filter((c) => c.identifier?.toUpperCase() === upper);
    const inFlight = matching.filter((c) => IN_FLIGHT.has(c.status));
    if (inFlight.length === 1 && inFlight[0]) return inFlight[0];
    if (inFlight.length > 1)
      return {
        code: 'CONFLICT',
        message: `Hay ${inFlight.length} órdenes en curso con ${ref.value}; usa el número de orden (${inFlight
          .map((c) => `#${c.number}`)
          .join(', ')}).`,
      };
    if (matching.length > 0)
      return { code: 'CONFLICT', message: `Ninguna orden con ${ref.value} sigue en curso.` };
    return { code: 'NOT_FOUND', message: `No hay ninguna orden con ${ref.value}.` };
  };

  const results: BulkCompleteLine[] = [];
  const done = new Set<string>();
  for (const line of parsed) {
    if (!line.ok) {
      results.push({
        line: line.line,
        reference: line.raw.slice(0, 40),
        ok: false,
        code: 'VALIDATION_FAILED',
        message: line.message,
      });
      continue;
    }
    const reference = describe(line.ref);
    const target = resolve(line.ref);
    if (!('id' in target)) {
      results.push({ line: line.line, reference, ok: false, ...target });
      continue;
    }
    if (done.has(target.id)) {
      results.push({
        line: line.line,
        reference,
        ok: false,
        code: 'CONFLICT',
        message: `La orden #${target.number} ya se completó en una línea anterior.`,
      });
      continue;
    }
    try {
      const row = await completeOrder(db, adminId, target.id, line.result);
      done.add(row.id);
      onCompleted(row);
      results.push({ line: line.line, reference, ok: true, orderId: row.id, number: row.number });
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      results.push({
        line: line.line,
        reference,
        ok: false,
        code: err.code,
        message:
          err.code === 'CONFLICT'
            ? `La orden #${target.number} ya está completada, rechazada o cancelada.`
            : err.message,
      });
    }
  }
  const completed = results.filter((r) => r.ok).length;
  return { results, completed, failed: results.length - completed };
}
