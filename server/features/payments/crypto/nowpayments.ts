// NOWPayments' two documented algorithms Cometa relies on, kept pure so the unit tests pin
// them: the IPN signature (HMAC-SHA512 of the body with its keys sorted at every level) and
// the conversion of the amounts in its JSON into exact integers (never floats).
import { createHmac, timingSafeEqual } from 'node:crypto';

/** A copy of `value` whose objects have their keys in sorted order, at every level. */
export function sortKeysRecursively(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeysRecursively);
  if (value !== null && typeof value === 'object') {
    const source = value as Record<string, unknown>;
    return Object.fromEntries(
      Object.keys(source)
        .sort()
        .map((key) => [key, sortKeysRecursively(source[key])]),
    );
  }
  return value;
}

/**
 * The signature NOWPayments sends in `x-nowpayments-sig`: hex HMAC-SHA512, keyed with the IPN
 * secret, of `JSON.stringify` of the parsed body with its keys sorted recursively.
 */
export function ipnSignature(body: unknown, ipnSecret: string): string {
  return createHmac('sha512', ipnSecret)
    .update(JSON.stringify(sortKeysRecursively(body)))
    .digest('hex');
}

const HEX_SHA512 = /^[0-9a-f]{128}$/i;

/**
 * The parsed body when `signature` is the IPN secret's signature of `rawBody` (hex in either
 * case; compared in constant time), or null: missing, malformed, not a JSON object, or wrong.
 */
export function verifiedIpnBody(
  rawBody: string,
  signature: string | undefined,
  ipnSecret: string,
): Record<string, unknown> | null {
  const given = signature?.trim() ?? '';
  if (!HEX_SHA512.test(given)) return null;
  let body: unknown;
  try {
    body = JSON.parse(rawBody);
  } catch {
    return null;
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return null;
  const expected = Buffer.from(ipnSignature(body, ipnSecret), 'hex');
  const received = Buffer.from(given.toLowerCase(), 'hex');
  if (received.length !== expected.length || !timingSafeEqual(received, expected)) return null;
  return body as Record<string, unknown>;
}

/** Decimals kept for coin amounts (ETH has 18). */
export const COIN_SCALE = 18;

const DECIMAL = /^(\d+)(?:\.(\d*))?(?:e([+-]?\d{1,3}))?$/i;

/**
 * A non-negative amount from provider JSON as an integer scaled by 10^scale, exactly: a JSON
 * number goes through its decimal text (`String(n)`, the shortest text that parses back to the
 * same number, possibly in exponent form), a string is read as written. Null when it is not a
 * non-negative decimal or has non-zero digits beyond `scale` (it cannot be represented exactly).
 */
export function toScaled(value: unknown, scale: number): bigint | null {
  let text: string;
  if (typeof value === 'number') {
    if (!Number.isFinite(value) || value < 0) return null;
    text = String(value);
  } else if (typeof value === 'string') {
    text = value.trim();
  } else {
    return null;
  }
  const match = DECIMAL.exec(text);
  if (!match) return null;
  const [, whole = '', fraction = '', exponent = '0'] = match;
  const digits = `${whole}${fraction}`;
  // The value is digits × 10^-(decimals): shift by the exponent.
  const decimals = fraction.length - Number(exponent);
  if (decimals <= scale) return BigInt(digits) * 10n ** BigInt(scale - decimals);
  const cut = decimals - scale;
  const dropped = digits.slice(Math.max(0, digits.length - cut));
  if (/[1-9]/.test(dropped)) return null;
  const kept = digits.slice(0, Math.max(0, digits.length - cut));
  return kept === '' ? 0n : BigInt(kept);
}

/** An integer scaled by 10^scale as the shortest decimal text: 12900000…n, 18 → "12.9". */
export function formatScaled(value: bigint, scale: number): string {
  const negative = value < 0n;
  const abs = (negative ? -value : value).toString().padStart(scale + 1, '0');
  const whole = abs.slice(0, abs.length - scale);
  const fraction = abs.slice(abs.length - scale).replace(/0+$/, '');
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}
