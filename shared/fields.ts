// Validation of the inputs a service asks for (IMEI, serial, e-mail…), shared by the order form
// and the server. Pure TypeScript: no Node or React imports. Rules: docs/domain.md §4.
import { isUploadId } from './files';
import {
  EMAIL_MAX,
  LINES_MAX,
  SERIAL_DEFAULT_MAX,
  SERIAL_DEFAULT_MIN,
  TEXT_DEFAULT_MAX,
  URL_MAX,
  USERNAME_DEFAULT_MAX,
  type ServiceField,
} from './schemas/service-fields';

// The definition schemas live with the service's other shapes; re-exported for the form and tests.
export {
  EMAIL_MAX,
  MAX_SERVICE_FIELDS,
  SERIAL_DEFAULT_MAX,
  SERIAL_DEFAULT_MIN,
  SERVICE_FIELD_TYPES,
  TEXT_DEFAULT_MAX,
  URL_MAX,
  USERNAME_DEFAULT_MAX,
  duplicateFieldKey,
  serviceFieldListSchema,
  serviceFieldSchema,
} from './schemas/service-fields';

export type FieldResult = { ok: true; value: string } | { ok: false; message: string };

export type OrderFieldsResult =
  | { ok: true; values: Record<string, string>; identifier: string | null }
  | { ok: false; errors: Record<string, string> };

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

/**
 * What people put between the digits of an IMEI as they copy it from a box, a label or a
 * screen: spaces, dashes (also the typographic ones a phone's keyboard substitutes), dots and
 * slashes («35-970237-369904-8», «35 332211 000066»).
 */
const IMEI_SEPARATORS = /[\s\-\u2010-\u2015\u2212./\\]+/g;

/** An IMEI as typed, without the separators people write in it: what is checked and stored. */
export function normaliseImei(text: string): string {
  return text.replace(IMEI_SEPARATORS, '');
}

function validateImei(text: string): FieldResult {
  const value = normaliseImei(text);
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

/**
 * A link typed without its scheme («instagram.com/tienda», «www.tiktok.com/@tienda»,
 * «//youtu.be/abc») completed to `https://`; anything else (a link with a scheme, or text that
 * names another one, such as «mailto:» or «javascript:») is left as it is, for the checks to
 * judge. Only a host with a dot is completed: «tienda» alone stays as typed (and is refused).
 */
export function completeUrl(text: string): string {
  const value = text.trim();
  if (value.startsWith('//')) return `https:${value}`;
  // A scheme is letters before a colon that a port number does not follow («host.com:8080»).
  if (/^[a-z][a-z0-9+.-]*:(?!\d)/i.test(value)) return value;
  const host = /^([^/?#:@\s]+)(?::\d+)?(?:[/?#]|$)/.exec(value)?.[1] ?? '';
  return /^[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,}$/i.test(host) ? `https://${value}` : value;
}

function validateUrl(text: string): FieldResult {
  const value = completeUrl(text);
  if (value.length > URL_MAX) {
    return { ok: false, message: `El enlace es demasiado largo (máximo ${URL_MAX} caracteres).` };
  }
  const invalid: FieldResult = {
    ok: false,
    message: 'Escribe un enlace válido (por ejemplo instagram.com/tu_cuenta).',
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

function validateLines(field: ServiceField, text: string): FieldResult {
  const lines = text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '');
  if (lines.length === 0) return { ok: false, message: REQUIRED_MESSAGE };
  if (lines.length > LINES_MAX) return { ok: false, message: `Como máximo ${LINES_MAX} líneas.` };
  const max = field.maxLength ?? TEXT_DEFAULT_MAX;
  const long = lines.findIndex((line) => line.length > max);
  if (long >= 0)
    return {
      ok: false,
      message: `La línea ${long + 1} es demasiado larga (máximo ${max} caracteres).`,
    };
  return { ok: true, value: lines.join('\n') };
}

/** d/m/yyyy (as panels write dates) or yyyy-mm-dd (a date input), written back as dd/mm/yyyy. */
function validateDate(text: string): FieldResult {
  const value = text.trim();
  const dmy = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})$/.exec(value);
  const iso = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  const [day, month, year] = dmy
    ? [Number(dmy[1]), Number(dmy[2]), Number(dmy[3])]
    : iso
      ? [Number(iso[3]), Number(iso[2]), Number(iso[1])]
      : [0, 0, 0];
  const date = new Date(Date.UTC(year, month - 1, day));
  if (
    year < 2000 ||
    year > 2100 ||
    date.getUTCFullYear() !== year ||
    date.getUTCMonth() !== month - 1 ||
    date.getUTCDate() !== day
  ) {
    return { ok: false, message: 'Escribe una fecha válida (día/mes/año).' };
  }
  if (date.getTime() < Date.now() - 24 * 3600 * 1000)
    return { ok: false, message: 'La fecha ya pasó.' };
  const two = (n: number) => String(n).padStart(2, '0');
  return { ok: true, value: `${two(day)}/${two(month)}/${year}` };
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
    case 'lines':
      return validateLines(field, text);
    case 'date':
      return validateDate(text);
    case 'file':
      // The file itself is checked on upload and when the order takes it (server side).
      return isUploadId(text.trim())
        ? { ok: true, value: text.trim().toLowerCase() }
        : { ok: false, message: 'Sube el archivo.' };
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
