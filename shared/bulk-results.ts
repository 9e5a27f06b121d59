// Pasted fulfilment results: one line per order, "<reference> <result>", where the reference is
// an order number (#123 or 123) or the order's identifier (an IMEI, a serial…). Suppliers hand
// results back in many shapes (tab-separated from a spreadsheet, "IMEI | code", "#123: code"),
// so the reference ends at the first tab, "|", ";", ",", ":" or space, and the rest is the result.
import { z } from 'zod';

export const BULK_RESULTS_MAX_LINES = 500;
export const RESULT_MAX_LENGTH = 5000;

export type ResultReference =
  { kind: 'number'; number: number } | { kind: 'identifier'; value: string };

export type ParsedResultLine =
  | { line: number; raw: string; ok: true; ref: ResultReference; result: string }
  | { line: number; raw: string; ok: false; message: string };

const LINE = /^(#?[A-Za-z0-9][A-Za-z0-9._-]*)\s*[\t|;,:=]?\s*([\s\S]*)$/;

/** "#123" or up to 9 digits is an order number; anything else is an identifier. */
export function parseReference(token: string): ResultReference | null {
  if (token.startsWith('#')) {
    const digits = token.slice(1);
    return /^\d{1,9}$/.test(digits) ? { kind: 'number', number: Number(digits) } : null;
  }
  if (/^\d{1,9}$/.test(token)) return { kind: 'number', number: Number(token) };
  return { kind: 'identifier', value: token };
}

function referenceKey(ref: ResultReference): string {
  return ref.kind === 'number' ? `#${ref.number}` : ref.value.toUpperCase();
}

/** Splits a paste into lines, each answered on its own; blank lines are skipped. */
export function parseResultLines(text: string): ParsedResultLine[] {
  const out: ParsedResultLine[] = [];
  const seen = new Map<string, number>();
  const lines = text.split(/\r?\n/);
  lines.forEach((rawLine, index) => {
    const raw = rawLine.trim();
    if (!raw) return;
    const line = index + 1;
    const match = LINE.exec(raw);
    const ref = match?.[1] ? parseReference(match[1]) : null;
    if (!match || !ref) {
      out.push({
        line,
        raw,
        ok: false,
        message: 'Empieza la línea con el número de orden (#123) o el IMEI.',
      });
      return;
    }
    const result = (match[2] ?? '').trim();
    if (!result) {
      out.push({ line, raw, ok: false, message: 'Falta el resultado después de la referencia.' });
      return;
    }
    if (result.length > RESULT_MAX_LENGTH) {
      out.push({ line, raw, ok: false, message: 'El resultado es demasiado largo.' });
      return;
    }
    const key = referenceKey(ref);
    const earlier = seen.get(key);
    if (earlier !== undefined) {
      out.push({
        line,
        raw,
        ok: false,
        message: `Esta orden ya aparece en la línea ${earlier}.`,
      });
      return;
    }
    seen.set(key, line);
    out.push({ line, raw, ok: true, ref, result });
  });
  return out;
}

export const BulkCompleteSchema = z.object({
  text: z
    .string({ error: 'Pega los resultados, uno por línea.' })
    .refine((t) => t.trim().length > 0, 'Pega los resultados, uno por línea.')
    .refine(
      (t) => t.split(/\r?\n/).filter((l) => l.trim()).length <= BULK_RESULTS_MAX_LINES,
      `Como máximo ${BULK_RESULTS_MAX_LINES} líneas a la vez.`,
    ),
});
export type BulkComplete = z.infer<typeof BulkCompleteSchema>;

/** One pasted line's outcome: the order completed, or why not. */
export const BulkCompleteLineSchema = z.discriminatedUnion('ok', [
  z.strictObject({
    line: z.number().int(),
    reference: z.string(),
    ok: z.literal(true),
    orderId: z.string(),
    number: z.number().int(),
  }),
  z.strictObject({
    line: z.number().int(),
    reference: z.string(),
    ok: z.literal(false),
    code: z.string(),
    message: z.string(),
  }),
]);
export type BulkCompleteLine = z.infer<typeof BulkCompleteLineSchema>;

/** POST /api/admin/orders/bulk-complete. */
export const BulkCompleteResultSchema = z.strictObject({
  results: z.array(BulkCompleteLineSchema),
  completed: z.number().int(),
  failed: z.number().int(),
});
export type BulkCompleteResult = z.infer<typeof BulkCompleteResultSchema>;
