import type { z } from 'zod';
import { api } from '../../lib/api';

/** A fresh Idempotency-Key; randomUUID needs a secure context, so fall back to getRandomValues. */
export function newRequestKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** POST JSON with an Idempotency-Key header, so a repeated submit moves money once. */
export function postWithIdempotencyKey<S extends z.ZodType>(
  path: string,
  schema: S,
  body: unknown,
  idempotencyKey: string,
): Promise<z.output<S>> {
  return api.post(path, schema, body, { headers: { 'Idempotency-Key': idempotencyKey } });
}
