import { ApiError } from './api';

/** One part of a page's data: loaded, or the Spanish reason it could not be. */
export type Loaded<T> = { ok: true; data: T } | { ok: false; error: string };

/** Resolves a request into Loaded, so one failing list does not take the whole page down. */
export async function settle<T>(request: Promise<T>): Promise<Loaded<T>> {
  try {
    return { ok: true, data: await request };
  } catch (err) {
    if (err instanceof ApiError) return { ok: false, error: err.message };
    throw err;
  }
}
