// Validation of the inputs a service asks for (IMEI, serial, e-mail…), shared by the order form
// and the server. Pure TypeScript: no Node or React imports. Rules: reference/dhru-api.md §3.
import { z } from 'zod';
import { ServiceFieldTypeSchema, type ServiceField } from './schemas/catalogue';

export type FieldResult = { ok: true; value: string } | { ok: false; message: string };

export type OrderFieldsResult =
  | { ok: true; values: Record<string, string>; identifier: string | null }
  | { ok: false; errors: Record<string, string> };

export const SERVICE_FIELD_TYPES = ServiceFieldTypeSchema.options;

export const MAX_SERVICE_FIELDS = 10;
export const SERIAL_DEFAULT_MIN = 8;
export const SERIAL_DEFAULT_MAX = 24;
export const USERNAME_DEFAULT_MAX = 64;
export const TEXT_DEFAULT_MAX = 500;
export const URL_MAX = 2048;
export const EMAIL_MAX = 254;

const REQUIRED_MESSAGE = 'Este campo es obligatorio.';
const EMAIL_PATTERN = /^[^\s@]+@[^\s@.]+(?:\.[^\s@.]+)*\.[a-z]{2,}$/;

/**
 * Luhn check of a 15-digit IMEI, as panels implement it: for i = 0..13, t = d[i] × (i % 2 + 1),
 * sum += t % 10 + ⌊t / 10⌋; valid when (10 − sum % 10) % 10 equals the last digit.
 */
export function luhnValid(digits: string): boolean {
  if (!/^\d{15}$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < 14; i += 1) {
    const t = Number(digits[i]) * ((i % 2) + 1);
    sum += (t % 10) + Math.floor(t / 10);
  }
  return (10 - (sum % 10)) % 10 === Number(digits[14]);
}

/** The raw input as text: strings as they are, finite numbers written out; null for anything else. */
function asText(raw: unknown): string | null {
  if (raw === undefined || raw === null) return '';
  if (typeof raw === 'string') return raw;
  if (typeof raw === 'number' && Number.isFinite(raw)) return String(raw);
  return null;
}

function lengthMessage(subject: string, min: number, max: number): string {
  return min === max
    ? `${subject} debe tener ${min} caracteres.`
    : `${subject} debe tener entre ${min} y ${max} caracteres.`;
}

function validateImei(text: string): FieldResult {
  const value = text.replace(/\s+/g, '');
  if (!/^\d+$/.test(value)) return { ok: false, message: 'El IMEI solo puede contener números.' };
  if (value.length !== 15) return { ok: false, message: 'El IMEI debe tener 15 dígitos.' };
  if (!luhnValid(value)) {
    return { ok: false, message: 'El IMEI no es válido: revisa el último dígito (control).' };
  }
  return { ok: true, value };
}

function validateSerial(field: ServiceField, text: string): FieldResult {
  const value = text.trim().toUpperCase();
  const allowLetters = field.allowLetters ?? true;
  if (allowLetters ? !/^[A-Z0-9]+$/.test(value) : !/^\d+$/.test(value)) {
    return {
      ok: false,
      message: allowLetters
        ? 'El número de serie solo puede contener letras y números.'
        : 'El número de serie solo puede contener números.',
    };
  }
  const min = field.minLength ?? SERIAL_DEFAULT_MIN;
  const max = field.maxLength ?? SERIAL_DEFAULT_MAX;
  if (value.length < min || value.length > max) {
    return { ok: false, message: lengthMessage('El número de serie', min, max) };
  }
  return { ok: true, value };
}

function validateEmail(text: string): FieldResult {
  const value = text.trim().toLowerCase();
  if (value.length > EMAIL_MAX || !EMAIL_PATTERN.test(value)) {
    return {
      ok: false,
      message: 'Escribe un correo electrónico válido (por ejemplo ana@correo.com).',
    };
  }
  return { ok: true, value };
}

function validateUsername(field: ServiceField, text: string): FieldResult {
  const trimmed = text.trim();
  const value = trimmed.startsWith('@') ? trimmed.slice(1) : trimmed;
  if (value.length === 0) return { ok: false, message: 'Escribe el nombre de usuario.' };
  if (/\s/.test(value)) {
    return { ok: false, message: 'El nombre de usuario no puede contener espacios.' };
  }
  const max = field.maxLength ?? USERNAME_DEFAULT_MAX;
  if (value.length > max) {
    return {
      ok: false,
      message: `El nombre de usuario es demasiado largo (máximo ${max} caracteres).`,
    };
  }
  return { ok: true, value };
}

function validateUrl(text: string): FieldResult {
  const value = text.trim();
  if (value.length > URL_MAX) {
    return { ok: false, message: `El enlace es demasiado largo (máximo ${URL_MAX} caracteres).` };
  }
  const invalid: FieldResult = {
    ok: false,
    message: 'Escribe un enlace válido que empiece por http:// o https://.',
  };
  if (/\s/.test(value)) return invalid;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return invalid;
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.hostname === '') {
    return invalid;
  }
  return { ok: true, value };
}

function validateNumber(field: ServiceField, text: string): FieldResult {
  const value = text.trim();
  if (!/^-?\d+$/.test(value)) return { ok: false, message: 'Escribe un número entero.' };
  const n = Number(value);
  if (!Number.isSafeInteger(n)) return { ok: false, message: 'El número es demasiado grande.' };
  const { min, max } = field;
  if ((min !== undefined && n < min) || (max !== undefined && n > max)) {
    let message: string;
    if (min !== undefined && max !== undefined) {
      message = `El número debe estar entre ${min} y ${max}.`;
    } else if (min !== undefined) {
      message = `El número debe ser mayor o igual que ${min}.`;
    } else {
      message = `El número debe ser menor o igual que ${max ?? 0}.`;
    }
    return { ok: false, message };
  }
  return { ok: true, value: String(n) };
}

function validateText(field: ServiceField, text: string): FieldResult {
  const value = text.trim();
  const min = Math.max(1, field.minLength ?? 1);
  const max = field.maxLength ?? TEXT_DEFAULT_MAX;
  if (value.length > max) {
    return { ok: false, message: `El texto es demasiado largo (máximo ${max} caracteres).` };
  }
  if (value.length < min) {
    return { ok: false, message: `El texto es demasiado corto (mínimo ${min} caracteres).` };
  }
  return { ok: true, value };
}

function validateSelect(field: ServiceField, text: string): FieldResult {
  const value = text.trim();
  if (!(field.options ?? []).includes(value)) {
    return { ok: false, message: 'Elige una de las opciones disponibles.' };
  }
  return { ok: true, value };
}

/**
 * Validates and normalises one input. Empty optional fields give `{ ok: true, value: '' }`;
 * empty required ones "Este campo es obligatorio.".
 */
export function validateField(field: ServiceField, raw: unknown): FieldResult {
  const text = asText(raw);
  if (text === null) return { ok: false, message: 'El valor no es válido.' };
  if (text.trim() === '') {
    return field.required ? { ok: false, message: REQUIRED_MESSAGE } : { ok: true, value: '' };
  }
  switch (field.type) {
    case 'imei':
      return validateImei(text);
    case 'serial':
      return validateSerial(field, text);
    case 'email':
      return validateEmail(text);
    case 'username':
      return validateUsername(field, text);
    case 'url':
      return validateUrl(text);
    case 'number':
      return validateNumber(field, text);
    case 'text':
      return validateText(field, text);
    case 'select':
      return validateSelect(field, text);
    default:
      return { ok: false, message: 'Este tipo de campo no es compatible.' };
  }
}

/** The field whose value is the order's identifier: the one marked, else the `imei` field. */
export function identifierField(fields: ServiceField[]): ServiceField | undefined {
  return fields.find((f) => f.identifier === true) ?? fields.find((f) => f.key === 'imei');
}

/**
 * Validates every field of a service. Keys of `input` the service does not ask for are ignored
 * (never stored); empty optional fields are left out of `values`.
 */
export function validateOrderFields(
  fields: ServiceField[],
  input: Record<string, unknown>,
): OrderFieldsResult {
  const values: Record<string, string> = {};
  const errors: Record<string, string> = {};
  for (const field of fields) {
    const raw = Object.prototype.hasOwnProperty.call(input, field.key)
      ? input[field.key]
      : undefined;
    const result = validateField(field, raw);
    if (!result.ok) errors[field.key] = result.message;
    else if (result.value !== '') values[field.key] = result.value;
  }
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  const idField = identifierField(fields);
  const identifier = idField ? (values[idField.key] ?? null) : null;
  return { ok: true, values, identifier };
}

const optionalInt = (what: string, min: number, max: number) =>
  z
    .number({ error: `${what} debe ser un número.` })
    .int(`${what} debe ser un número entero.`)
    .min(min, `${what} debe ser al menos ${min}.`)
    .max(max, `${what} no puede pasar de ${max}.`)
    .optional();

/** One field as an admin defines it. Unique keys across a service are checked by the caller. */
export const serviceFieldSchema = z
  .object({
    key: z
      .string({ error: 'Escribe la clave del campo.' })
      .regex(
        /^[a-z][a-z0-9_]{0,31}$/,
        'La clave debe empezar por una letra minúscula y tener solo minúsculas, números o guiones bajos (máximo 32).',
      ),
    label: z
      .string({ error: 'Escribe la etiqueta del campo.' })
      .trim()
      .min(1, 'Escribe la etiqueta del campo.')
      .max(80, 'La etiqueta es demasiado larga (máximo 80 caracteres).'),
    type: z.enum(SERVICE_FIELD_TYPES, { error: 'Elige un tipo de campo válido.' }),
    required: z.boolean({ error: 'Indica si el campo es obligatorio.' }).default(true),
    minLength: optionalInt('La longitud mínima', 1, URL_MAX),
    maxLength: optionalInt('La longitud máxima', 1, URL_MAX),
    allowLetters: z.boolean({ error: 'Indica si se permiten letras.' }).optional(),
    min: optionalInt('El mínimo', Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER),
    max: optionalInt('El máximo', Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER),
    options: z
      .array(
        z
          .string({ error: 'Cada opción debe ser un texto.' })
          .trim()
          .min(1, 'Las opciones no pueden estar vacías.')
          .max(100, 'Cada opción puede tener como máximo 100 caracteres.'),
        { error: 'Las opciones deben ser una lista.' },
      )
      .max(100, 'Un campo puede tener como máximo 100 opciones.')
      .optional(),
    hint: z
      .string({ error: 'La ayuda debe ser un texto.' })
      .trim()
      .max(200, 'La ayuda es demasiado larga (máximo 200 caracteres).')
      .optional(),
    identifier: z.boolean({ error: 'Indica si el campo es el identificador.' }).optional(),
  })
  .superRefine((f, ctx) => {
    if (f.type === 'select' && (f.options ?? []).length === 0) {
      ctx.addIssue({
        code: 'custom',
        path: ['options'],
        message: 'Una lista de opciones necesita al menos una opción.',
      });
    }
    if (f.minLength !== undefined && f.maxLength !== undefined && f.minLength > f.maxLength) {
      ctx.addIssue({
        code: 'custom',
        path: ['minLength'],
        message: 'La longitud mínima no puede ser mayor que la máxima.',
      });
    }
    if (f.min !== undefined && f.max !== undefined && f.min > f.max) {
      ctx.addIssue({
        code: 'custom',
        path: ['min'],
        message: 'El mínimo no puede ser mayor que el máximo.',
      });
    }
  });

/** The list of a service's fields: at most ten. */
export const serviceFieldListSchema = z
  .array(serviceFieldSchema, { error: 'Los campos deben ser una lista.' })
  .max(MAX_SERVICE_FIELDS, `Un servicio puede pedir como máximo ${MAX_SERVICE_FIELDS} campos.`);

/** The first key that appears twice, if any. */
export function duplicateFieldKey(fields: Pick<ServiceField, 'key'>[]): string | null {
  const seen = new Set<string>();
  for (const { key } of fields) {
    if (seen.has(key)) return key;
    seen.add(key);
  }
  return null;
}
