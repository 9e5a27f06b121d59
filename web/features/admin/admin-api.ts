import { ApiError, api } from '../../lib/api';
import type { Loaded } from './types';

/** Resolves a request into Loaded, so one failing list does not take the whole page down. */
export async function settle<T>(request: Promise<T>): Promise<Loaded<T>> {
  try {
    return { ok: true, data: await request };
  } catch (err) {
    if (err instanceof ApiError) return { ok: false, error: err.message };
    throw err;
  }
}

/** A fresh Idempotency-Key; randomUUID needs a secure context, so fall back to getRandomValues. */
export function newRequestKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** POST JSON with an Idempotency-Key header, so a repeated submit moves money once. */
export async function postWithIdempotencyKey<T>(
  path: string,
  body: unknown,
  idempotencyKey: string,
): Promise<T> {
  return api<T>(path, { body, headers: { 'Idempotency-Key': idempotencyKey } });
}
