// Stock items at rest: sealed with the supplier keys' box (AES-256-GCM under a key derived from
// AUTH_SECRET, decision 0023), bound to the item's id; found again for duplicates by a keyed hash
// (HMAC-SHA-256 under another key derived from AUTH_SECRET), so a duplicate is caught without
// decrypting anything and the hash alone tells nothing to someone without the secret.
import { createHmac, hkdfSync } from 'node:crypto';
import type { Env } from '../../env';
import { secretBox } from '../suppliers/connection';

export type StockKeys = Pick<Env, 'AUTH_SECRET'>;

const hashKeys = new Map<string, Buffer>();

function hashKey(env: StockKeys): Buffer {
  let key = hashKeys.get(env.AUTH_SECRET);
  if (!key) {
    key = Buffer.from(hkdfSync('sha256', env.AUTH_SECRET, 'cometa', 'stock item hash v1', 32));
    hashKeys.set(env.AUTH_SECRET, key);
  }
  return key;
}

/** The keyed hash an item is looked up by (per service: the service id is mixed in). */
export function itemHash(env: StockKeys, serviceId: string, item: string): string {
  return createHmac('sha256', hashKey(env)).update(`${serviceId}\n${item}`, 'utf8').digest('hex');
}

function context(itemId: string): string {
  return `stock:${itemId}`;
}

export function sealItem(env: StockKeys, itemId: string, item: string): string {
  return secretBox(env).seal(item, context(itemId));
}

/** The item's text, or null when it was not sealed with this AUTH_SECRET. */
export function openItem(env: StockKeys, itemId: string, sealed: string): string | null {
  return secretBox(env).open(sealed, context(itemId));
}

/** What staff see of an item: its last 4 characters (by code point). */
export function lastFour(item: string): string {
  return [...item].slice(-4).join('');
}

/** «••••AB12»: an item's result as staff see it. */
export function maskedItem(last4: string): string {
  return `••••${last4}`;
}
