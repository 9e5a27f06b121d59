// Every value a supplier sends is read into the range we can store and use before it goes near
// the database: PostgreSQL refuses NUL in text, 2³¹ in an integer column and 2⁶³ in a bigint, and
// a refused statement inside a job used to take the job (and, through pg-boss, the process) down.
// An unreadable value is reported, never guessed.
import { MAX_QUANTITY } from '../../shared/schemas/catalogue';
import { htmlToText, parseDecimalMicros, plainText } from './decimal';
import { scalarText } from './dhru-wire';
import type { RemoteCatalogue, RemoteService } from './types';

/** Largest supplier amount we keep: a billion in the supplier's currency, in millionths. */
export const MAX_SUPPLIER_MICROS = 10n ** 15n;

/** Lengths kept of supplier texts (the catalogue and order columns are plain text). */
export const TEXT_LIMITS = {
  remoteId: 64,
  reference: 128,
  name: 300,
  group: 200,
  deliveryTime: 100,
  info: 5000,
  currency: 12,
  result: 5000,
  message: 1000,
} as const;

/** Services read from one catalogue, at most (the largest real catalogues hold a few thousand). */
export const MAX_CATALOGUE_ENTRIES = 20_000;

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1).trimEnd()}…` : text;
}

/** A short one-line text (names, groups, currencies): plain, white space folded, clipped. */
export function lineText(value: unknown, max: number): string {
  const text = scalarText(value);
  if (text === null) return '';
  return clip(plainText(text).replace(/\s+/g, ' ').trim(), max);
}

/** Supplier HTML as plain text (htmlToText), clipped. */
export function htmlText(value: unknown, max: number): string {
  const text = scalarText(value);
  return text === null ? '' : clip(htmlToText(text), max);
}

/**
 * An identifier the supplier gives (a service id, an order reference): printable, without
 * spaces or controls, within `max` characters; null for anything else (never shortened: a
 * shortened reference would name another order).
 */
export function identifierText(value: unknown, max: number): string | null {
  const text = scalarText(value)?.trim();
  if (!text || text.length > max) return null;
  return /^[\p{L}\p{N}\p{P}\p{S}]+$/u.test(text) && plainText(text) === text ? text : null;
}

export type IntegerReading =
  { ok: true; value: number } | { ok: false; reason: 'missing' | 'unreadable' };

/** A whole number written as digits (or a JSON integer); any size is read, exactly. */
export function readInteger(value: unknown): IntegerReading {
  if (value === undefined || value === null || value === '')
    return { ok: false, reason: 'missing' };
  const text = scalarText(value)?.trim() ?? '';
  if (!/^[+-]?\d{1,400}$/.test(text)) return { ok: false, reason: 'unreadable' };
  const big = BigInt(text);
  const capped = big > 10n ** 15n ? 10n ** 15n : big < -(10n ** 15n) ? -(10n ** 15n) : big;
  return { ok: true, value: Number(capped) };
}

/**
 * A quantity limit: within 1…MAX_QUANTITY, a larger maximum read as our own largest quantity
 * (we accept fewer than the supplier allows); null when missing, unreadable or below 1.
 */
export function quantityLimit(value: unknown, which: 'min' | 'max'): number | null {
  const read = readInteger(value);
  if (!read.ok || read.value < 1) return null;
  if (which === 'max') return Math.min(read.value, MAX_QUANTITY);
  return read.value;
}

/** A count the supplier reports about an order (remains, start count): 0…2³¹−1, or null. */
export function orderCount(value: unknown, options: { negative?: boolean } = {}): number | null {
  const read = readInteger(value);
  if (!read.ok) return null;
  const low = options.negative ? -0x7fffffff : 0;
  return Math.min(Math.max(read.value, low), 0x7fffffff);
}

export type CostReading = { ok: true; micros: bigint } | { ok: false; problem: string };

/**
 * A price the supplier charges: readable, above zero and below MAX_SUPPLIER_MICROS. A cost of
 * zero is refused too: no supplier sells for nothing, and a markup of nothing is a free order.
 */
export function readCost(value: unknown): CostReading {
  const micros = parseDecimalMicros(value);
  const shown = lineText(value, 40) || JSON.stringify(value ?? null).slice(0, 40);
  if (micros === null) return { ok: false, problem: `El costo «${shown}» no se puede leer.` };
  if (micros < 0n) return { ok: false, problem: `El costo «${shown}» es negativo.` };
  if (micros === 0n) return { ok: false, problem: 'El costo es cero.' };
  if (micros > MAX_SUPPLIER_MICROS)
    return { ok: false, problem: `El costo «${shown}» está fuera de rango.` };
  return { ok: true, micros };
}

/** A balance: readable and within ±MAX_SUPPLIER_MICROS (a debt is a negative balance); else null. */
export function readBalance(value: unknown): bigint | null {
  const micros = parseDecimalMicros(value);
  if (micros === null) return null;
  return micros > MAX_SUPPLIER_MICROS || micros < -MAX_SUPPLIER_MICROS ? null : micros;
}

/** A currency code as the supplier writes it ("USD", "usd", "$"); empty when unreadable. */
export function currencyText(value: unknown): string {
  const text = lineText(value, TEXT_LIMITS.currency);
  return /^[\p{L}\p{Sc}]{1,12}$/u.test(text) ? text.toUpperCase() : '';
}

/**
 * Collects a catalogue entry by entry: repeated ids and entries past MAX_CATALOGUE_ENTRIES are
 * skipped, and every skip or unusable cost becomes an issue the admin sees on the supplier.
 */
export function catalogueCollector() {
  const seen = new Set<string>();
  const catalogue: RemoteCatalogue = { services: [], issues: [] };
  let overflow = 0;
  return {
    /** Reports an entry that could not be read at all. */
    skip(remoteId: string | null, name: string | null, reason: string) {
      catalogue.issues.push({ remoteId, name, reason });
    },
    add(service: RemoteService) {
      if (seen.has(service.remoteId)) {
        catalogue.issues.push({
          remoteId: service.remoteId,
          name: service.name,
          reason: 'El identificador está repetido en el catálogo: se usa la primera entrada.',
        });
        return;
      }
      if (catalogue.services.length >= MAX_CATALOGUE_ENTRIES) {
        overflow += 1;
        return;
      }
      seen.add(service.remoteId);
      catalogue.services.push(service);
      if (service.costProblem !== null) {
        catalogue.issues.push({
          remoteId: service.remoteId,
          name: service.name,
          reason: service.costProblem,
        });
      }
    },
    result(): RemoteCatalogue {
      if (overflow > 0) {
        catalogue.issues.push({
          remoteId: null,
          name: null,
          reason: `El catálogo trae más de ${MAX_CATALOGUE_ENTRIES} servicios: ${overflow} no se leyeron.`,
        });
      }
      return catalogue;
    },
  };
}
