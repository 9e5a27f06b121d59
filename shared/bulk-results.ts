// Pasted fulfilment results: one line per order, "<reference> <result>", where the reference is
// an order number (#123 or 123) or the order's identifier (an IMEI, a serial…). Suppliers hand
// results back in many shapes (tab-separated from a spreadsheet, "IMEI | code", "#123: code"),
// so the reference ends at the first tab, "|", ";", ",", ":" or space, and the rest is the result.
import { z } from 'zod';
import { luhnValid, normaliseImei } from './fields';

export const BULK_RESULTS_MAX_LINES = 500;
export const RESULT_MAX_LENGTH = 5000;

export type ResultReference =
  { kind: 'number'; number: number } | { kind: 'identifier'; value: string };

export type ParsedResultLine =
  | { line: number; raw: string; ok: true; ref: ResultReference; result: string }
  | { line: number; raw: string; ok: false; message: string };

const LINE = /^(#?[A-Za-z0-9][A-Za-z0-9._/-]*)\s*[\t|;,:=]?\s*([\s\S]*)$/;

/**
 * An IMEI written with separators at the start of a line («35 970237 369904 8 | result»), in
 * the groupings printed on boxes and labels: 2-6-6-1, 8-6-1 or 6-2-6-1 digits, one space,
 * dash, dot or slash (the same one) between groups. Other digit groups are not joined: «101
 * 123456789012» is order 101 and its result.
 */
const SEP = '[ \\-\\u2010-\\u2015\\u2212./]';
const LEADING_IMEI = new RegExp(
  `^((?:\\d{2}(${SEP})\\d{6}\\2\\d{6}\\2\\d)|(?:\\d{8}(${SEP})\\d{6}\\3\\d)|(?:\\d{6}(${SEP})\\d{2}\\4\\d{6}\\4\\d))(?!\\d)\\s*[\\t|;,:=]?\\s*([\\s\\S]*)$`,
);

/** A token that is an IMEI written with dashes, dots or slashes. */
const IMEI_WITH_SEPARATORS = /^\d[\d\-\u2010-\u2015\u2212./]*$/;

/**
 * "#123" or up to 9 digits is an order number; anything else is an identifier (an IMEI written
 * with dashes, dots or slashes as its 15 digits, as orders store it).
 */
export function parseReference(token: string): ResultReference | null {
  if (token.startsWith('#')) {
    const digits = token.slice(1);
    return /^\d{1,9}$/.test(digits) ? { kind: 'number', number: Number(digits) } : null;
  }
  if (/^\d{1,9}$/.test(token)) return { kind: 'number', number: Number(token) };
  if (IMEI_WITH_SEPARATORS.test(token) && normaliseImei(token).length === 15)
    return { kind: 'identifier', value: normaliseImei(token) };
  return { kind: 'identifier', value: token };
}

/** The line's reference and result: an IMEI with separators first, else the first token. */
function splitLine(
  raw: string,
): { ref: ResultReference | null; result: string } | { error: string } | null {
  const imei = LEADING_IMEI.exec(raw);
  const digits = imei?.[1] ? normaliseImei(imei[1]) : '';
  if (imei && luhnValid(digits))
    return { ref: { kind: 'identifier', value: digits }, result: (imei[5] ?? '').trim() };
  // «35 970237 369904 9 …» with a wrong check digit must not be read as order #35.
  if (imei && digits !== imei[1])
    return { error: `${imei[1]} parece un IMEI, pero no es válido: revisa el último dígito.` };
  const match = LINE.exec(raw);
  if (!match?.[1]) return null;
  return { ref: parseReference(match[1]), result: (match[2] ?? '').trim() };
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
    const split = splitLine(raw);
    if (split && 'error' in split) {
      out.push({ line, raw, ok: false, message: split.error });
      return;
    }
    const ref = split?.ref ?? null;
    if (!split || !ref) {
      out.push({
        line,
        raw,
        ok: false,
        message: 'Empieza la línea con el número de orden (#123) o el IMEI.',
      });
      return;
    }
    const result = split.result;
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

export const BULK_PREVIEW_ACTIONS = ['complete', 'skip'] as const;

/** The order a pasted line names, as the preview shows it. */
export const BulkPreviewOrderSchema = z.strictObject({
  id: z.string(),
  number: z.number().int(),
  customerEmail: z.string(),
  customerName: z.string(),
  serviceName: z.string(),
  /** Its identifier (IMEI, serial…), when it has one. */
  identifier: z.string().nullable(),
  status: z.string(),
  statusLabel: z.string(),
});
export type BulkPreviewOrder = z.infer<typeof BulkPreviewOrderSchema>;

/** One pasted line before anything changes: its order, and what completing the paste would do. */
export const BulkPreviewLineSchema = z.strictObject({
  line: z.number().int(),
  reference: z.string(),
  /** `complete`: the order would be completed with `result`; `skip`: nothing changes (`message` says why). */
  action: z.enum(BULK_PREVIEW_ACTIONS),
  order: BulkPreviewOrderSchema.nullable(),
  result: z.string().nullable(),
  /** What will happen, in Spanish. */
  message: z.string(),
});
export type BulkPreviewLine = z.infer<typeof BulkPreviewLineSchema>;

/** POST /api/admin/orders/bulk-complete/preview. */
export const BulkCompletePreviewSchema = z.strictObject({
  lines: z.array(BulkPreviewLineSchema),
  /** Lines that would complete their order. */
  ready: z.number().int(),
  /** Lines that would change nothing. */
  skipped: z.number().int(),
});
export type BulkCompletePreview = z.infer<typeof BulkCompletePreviewSchema>;
