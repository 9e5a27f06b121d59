// The bulk IMEI box of the order form: each line checked as it is typed (the same field rules
// as the server, shared/fields.ts), the total counted on the valid lines only, and after an
// order the box keeps only the lines that were refused. Pure functions, unit-tested.
import { validateField } from '../../../shared/fields';
import type { ServiceField } from '../../../shared/schemas/catalogue';
import type { BulkLineResult } from '../../../shared/schemas/orders';
import { plural } from '../../../shared/plural';

export const DUPLICATE_LINE_MESSAGE = 'Este IMEI está repetido en la lista.';

/** One non-empty line of the box: its IMEI as it will be stored, or why it will be refused. */
export type CheckedLine =
  | { line: number; text: string; ok: true; imei: string }
  | { line: number; text: string; ok: false; message: string };

export type CheckedBox = {
  /** The non-empty lines, trimmed, in order: what is sent (line n of the request is lines[n-1]). */
  lines: string[];
  checked: CheckedLine[];
  valid: number;
  invalid: number;
};

/** The box's non-empty lines, trimmed. */
export function boxLines(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean);
}

const IMEI_FIELD: ServiceField = { key: 'imei', label: 'IMEI', type: 'imei', required: true };

/** Every line checked as the server will check it: the IMEI rules, then repeats in the list. */
export function checkBox(field: ServiceField | undefined, text: string): CheckedBox {
  const lines = boxLines(text);
  const seen = new Set<string>();
  const checked = lines.map((line, i): CheckedLine => {
    const r = validateField({ ...(field ?? IMEI_FIELD), required: true }, line);
    if (!r.ok) return { line: i + 1, text: line, ok: false, message: r.message };
    if (seen.has(r.value))
      return { line: i + 1, text: line, ok: false, message: DUPLICATE_LINE_MESSAGE };
    seen.add(r.value);
    return { line: i + 1, text: line, ok: true, imei: r.value };
  });
  const valid = checked.filter((l) => l.ok).length;
  return { lines, checked, valid, invalid: checked.length - valid };
}

/**
 * What the box holds after a bulk order: the refused lines only, as they were typed, in their
 * order; the lines that became orders are gone, so they cannot be ordered twice by mistake.
 */
export function refusedLines(sent: readonly string[], results: readonly BulkLineResult[]): string {
  return results
    .filter((r) => !r.ok)
    .sort((a, b) => a.line - b.line)
    .map((r) => sent[r.line - 1] ?? r.imei)
    .join('\n');
}

export { plural };

/** The box's hint: how many lines, how many valid, and that refused ones are not charged. */
export function boxHint(box: CheckedBox): string {
  if (box.lines.length === 0)
    return 'Pega un IMEI por línea. Las líneas no válidas se rechazan sin cargo.';
  const counted = plural(box.lines.length, 'línea', 'líneas');
  if (box.invalid === 0) return `${counted}, todas válidas.`;
  return `${counted}: ${plural(box.valid, 'válida', 'válidas')}, ${plural(box.invalid, 'con error', 'con errores')} (no se cobran).`;
}
