// Our price for a supplier's cost with a margin, as the server computes it on import and on
// every sync (shared/money.ts markupPriceCents): integer math, never floats, rounded UP to the
// cent. Used by the import preview (/admin/proveedores) and the routes editor (/admin/servicios).
import { formatAmount, markupPriceCents, type Micros } from '../../shared/money';
import { MarkupPercentSchema } from '../../shared/schemas/suppliers';

const COST_PATTERN = /^(\d{1,12})(?:\.(\d{1,6}))?$/;

/** "0.27819" → 278190n millionths; null for anything that is not a plain non-negative decimal. */
export function parseCostMicros(cost: string): Micros | null {
  const match = COST_PATTERN.exec(cost.trim());
  if (!match) return null;
  const [, whole = '0', fraction = ''] = match;
  return BigInt(whole) * 1_000_000n + BigInt(fraction.padEnd(6, '0'));
}

/** A margin in percent as basis points: 12.5 → 1250. */
export function percentToBp(percent: number): number {
  return Math.round(percent * 100);
}

export type ParsedMarkup = { ok: true; value: number; bp: number } | { ok: false; message: string };

/**
 * "20", "12.5" or "12,5" (a trailing % is fine) → the margin the API takes, checked with the
 * API's own schema (0 to 1000, at most two decimals), or its Spanish message.
 */
export function parseMarkup(input: string): ParsedMarkup {
  const text = input.trim().replace(',', '.').replace(/\s*%$/, '');
  const fallback = 'El margen debe ser un número (por ejemplo 20 o 12.5).';
  if (text === '') return { ok: false, message: 'Escribe el margen (por ejemplo 20).' };
  if (!/^[+-]?\d{1,6}(\.\d+)?$/.test(text)) return { ok: false, message: fallback };
  const parsed = MarkupPercentSchema.safeParse(Number(text));
  if (!parsed.success) return { ok: false, message: parsed.error.issues[0]?.message ?? fallback };
  return { ok: true, value: parsed.data, bp: percentToBp(parsed.data) };
}

/**
 * The price for `cost` (up to six decimals) with a margin in basis points, as a decimal string
 * with two places ("0.96"); null when the cost cannot be read.
 */
export function markupPrice(cost: string, markupBp: number): string | null {
  const micros = parseCostMicros(cost);
  if (micros === null || !Number.isInteger(markupBp) || markupBp < 0) return null;
  return formatAmount(markupPriceCents(micros, markupBp));
}
