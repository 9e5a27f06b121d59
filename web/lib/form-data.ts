import type { z } from 'zod';
import { fieldErrors } from '../../shared/schemas/auth';
import { ApiError } from './api';

export type FormResult = {
  fields?: Record<string, string>;
  formError?: string;
  ok?: boolean;
  message?: string;
};

/** FormData → plain object of strings (files are ignored). */
export function formToObject(formData: FormData): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of formData) if (typeof value === 'string') out[key] = value;
  return out;
}

export function parseForm<T extends z.ZodType>(
  schema: T,
  formData: FormData,
): { data: z.infer<T> } | { error: FormResult } {
  return parseValues(schema, formToObject(formData));
}

/** Values already shaped for the API (numbers as numbers…) checked with the API's own schema. */
export function parseValues<T extends z.ZodType>(
  schema: T,
  values: unknown,
): { data: z.infer<T> } | { error: FormResult } {
  const parsed = schema.safeParse(values);
  if (parsed.success) return { data: parsed.data };
  return { error: { fields: fieldErrors(parsed.error) } };
}

/** Maps an API failure to what the form shows: a field message where the server named one. */
export function apiFailure(err: unknown, fieldByCode: Record<string, string> = {}): FormResult {
  if (!(err instanceof ApiError)) throw err;
  const field = fieldByCode[err.code];
  if (field) return { fields: { ...err.fields, [field]: err.message } };
  return { formError: err.message, fields: err.fields };
}
