// Personal API keys as the customer manages them: random, shown once, stored as a SHA-256,
// revocable at once, optionally bound to addresses. Using them: server/lib/api-keys.ts.
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import { and, asc, count, eq, isNull } from 'drizzle-orm';
import {
  API_KEYS_MAX,
  type ApiKeyDto,
  type CreateApiKeyInput,
  type CreatedApiKey,
} from '../../../shared/schemas/api-keys';
import type { Db } from '../../db/client';
import { apiKey } from '../../db/schema/reseller';
import { AppError } from '../../lib/errors';
import { hashKey, KEY_PREFIX } from '../../lib/api-keys';

const PREFIX_SHOWN = 12;

type KeyRow = typeof apiKey.$inferSelect;

function toDto(row: KeyRow): ApiKeyDto {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    allowedIps: row.allowedIps,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
  };
}

/** An address or a CIDR range, as written; null when it is neither. */
function normaliseRange(text: string): string | null {
  const [address = '', bits, extra] = text.trim().split('/');
  if (extra !== undefined) return null;
  const family = net.isIP(address);
  if (family === 0) return null;
  if (bits === undefined) return address;
  if (!/^\d{1,3}$/.test(bits)) return null;
  const n = Number(bits);
  if (n > (family === 4 ? 32 : 128)) return null;
  return `${address}/${n}`;
}

/** POST /api/keys: a new key for the signed-in customer, returned once. */
export async function createKey(
  db: Db,
  userId: string,
  input: CreateApiKeyInput,
): Promise<CreatedApiKey> {
  const ranges: string[] = [];
  const errors: Record<string, string> = {};
  for (const [i, text] of input.allowedIps.entries()) {
    const range = normaliseRange(text);
    if (!range) errors[`allowedIps.${i}`] = `«${text}» no es una dirección IP ni un rango válido.`;
    else if (!ranges.includes(range)) ranges.push(range);
  }
  if (Object.keys(errors).length) throw new AppError('VALIDATION_FAILED', undefined, errors);
  const [active] = await db
    .select({ n: count() })
    .from(apiKey)
    .where(and(eq(apiKey.userId, userId), isNull(apiKey.revokedAt)));
  if (Number(active?.n ?? 0) >= API_KEYS_MAX) {
    throw new AppError(
      'CONFLICT',
      `Ya tienes ${API_KEYS_MAX} claves activas: revoca alguna antes de crear otra.`,
    );
  }
  const key = `${KEY_PREFIX}${randomBytes(30).toString('base64url')}`;
  const [row] = await db
    .insert(apiKey)
    .values({
      userId,
      name: input.name,
      prefix: key.slice(0, PREFIX_SHOWN),
      keyHash: hashKey(key),
      allowedIps: ranges,
    })
    .returning();
  if (!row) throw new Error('insert returned no row');
  return { ...toDto(row), key };
}

/** GET /api/keys: the customer's active keys, oldest first, never the keys themselves. */
export async function listKeys(db: Db, userId: string): Promise<ApiKeyDto[]> {
  const rows = await db
    .select()
    .from(apiKey)
    .where(and(eq(apiKey.userId, userId), isNull(apiKey.revokedAt)))
    .orderBy(asc(apiKey.createdAt), asc(apiKey.id));
  return rows.map(toDto);
}

/** DELETE /api/keys/:id: revoked at once (the next request with it is refused). */
export async function revokeKey(db: Db, userId: string, id: string): Promise<void> {
  const [row] = await db
    .update(apiKey)
    .set({ revokedAt: new Date() })
    .where(and(eq(apiKey.id, id), eq(apiKey.userId, userId), isNull(apiKey.revokedAt)))
    .returning({ id: apiKey.id });
  // Another customer's key answers like one that does not exist.
  if (!row) throw new AppError('NOT_FOUND', 'La clave no existe o ya estaba revocada.');
}
