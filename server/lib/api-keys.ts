// Authenticating a personal API key (REST with `Authorization: Bearer`, DHRU Fusion, SMM v2):
// an active key of a verified, not blocked account, from an allowed address, within its rate
// limit. A key acts as its customer, never as an admin, whatever the owner's role.
import { createHash } from 'node:crypto';
import net from 'node:net';
import { and, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { user } from '../db/schema/auth';
import { apiKey } from '../db/schema/reseller';
import type { SessionUser } from './http';
import { consumeRateLimit } from './rate-limit';

/** Every key starts so; it makes a leaked key easy to recognise (secret scanners). */
export const KEY_PREFIX = 'cmt_';
/** `last_used_at` is written at most this often per key (not on every request). */
const TOUCH_EVERY_SECONDS = 60;

export function hashKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** Whether `ip` is one of the allowed addresses or ranges (an empty list allows any). */
export function ipAllowed(ip: string, allowed: string[]): boolean {
  if (allowed.length === 0) return true;
  const family = net.isIP(ip);
  if (family === 0) return false;
  const list = new net.BlockList();
  for (const entry of allowed) {
    const [address = '', bits] = entry.split('/');
    const type = net.isIP(address) === 6 ? 'ipv6' : 'ipv4';
    if (bits === undefined) list.addAddress(address, type);
    else list.addSubnet(address, Number(bits), type);
  }
  // An IPv4 client seen as IPv4-mapped IPv6 (::ffff:203.0.113.7) matches IPv4 entries.
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip)?.[1];
  return (
    list.check(ip, family === 6 ? 'ipv6' : 'ipv4') ||
    (mapped !== undefined && list.check(mapped, 'ipv4'))
  );
}

export type KeyFailure = 'unknown' | 'ip-not-allowed' | 'rate-limited';

export type KeyAuth =
  | { ok: true; user: SessionUser; keyId: string }
  | { ok: false; reason: KeyFailure; retryAfter?: number };

/**
 * Who a key belongs to: an active key of a verified, not blocked account, used from an allowed
 * address, within its rate limit. `email`, when given (DHRU's `username`), must be the owner's.
 */
export async function authenticateKey(
  db: Db,
  rawKey: string,
  context: { ip: string; email?: string; ratePerMinute: number },
): Promise<KeyAuth> {
  const key = rawKey.trim();
  if (!key.startsWith(KEY_PREFIX) || key.length > 200) return { ok: false, reason: 'unknown' };
  const [found] = await db
    .select({ key: apiKey, owner: user })
    .from(apiKey)
    .innerJoin(user, eq(user.id, apiKey.userId))
    .where(and(eq(apiKey.keyHash, hashKey(key)), isNull(apiKey.revokedAt)));
  if (!found) return { ok: false, reason: 'unknown' };
  const { owner } = found;
  const banned = owner.banned === true && (!owner.banExpires || owner.banExpires > new Date());
  if (!owner.emailVerified || banned) return { ok: false, reason: 'unknown' };
  if (
    context.email !== undefined &&
    context.email.trim().toLowerCase() !== owner.email.toLowerCase()
  )
    return { ok: false, reason: 'unknown' };
  if (!ipAllowed(context.ip, found.key.allowedIps)) return { ok: false, reason: 'ip-not-allowed' };
  const limit = await consumeRateLimit(db, `apikey:${found.key.id}`, {
    window: 60,
    max: context.ratePerMinute,
  });
  if (!limit.allowed)
    return { ok: false, reason: 'rate-limited', retryAfter: limit.retryAfter ?? 60 };
  await db
    .update(apiKey)
    .set({ lastUsedAt: new Date() })
    .where(
      and(
        eq(apiKey.id, found.key.id),
        or(
          isNull(apiKey.lastUsedAt),
          lt(apiKey.lastUsedAt, sql`now() - make_interval(secs => ${TOUCH_EVERY_SECONDS})`),
        ),
      ),
    );
  return {
    ok: true,
    keyId: found.key.id,
    user: {
      id: owner.id,
      name: owner.name,
      email: owner.email,
      emailVerified: owner.emailVerified,
      // A key never acts as an admin, whatever its owner's role.
      role: 'customer',
      twoFactorEnabled: false,
    },
  };
}
