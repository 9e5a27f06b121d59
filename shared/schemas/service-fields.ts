// The inputs a service asks for (IMEI, serial, e-mail…): how the API describes them, and how an
// admin defines them. Validation of the values customers type is in shared/fields.ts.
import { z } from 'zod';
import { FILE_EXTENSION_PATTERN, FILE_EXTENSIONS_MAX, FILE_MAX_BYTES } from '../files';

export const ServiceFieldTypeSchema = z.enum([
  'imei',
  'serial',
  'email',
  'username',
  'url',
  'number',
  'text',
  'select',
  /** A list, one item a line (SMM comments, usernames, hashtags). */
  'lines',
  /** A calendar date (day/month/year). */
  'date',
  /** A file the customer uploads (shared/files.ts); the value is the upload's id. */
  'file',
]);
export type ServiceFieldType = z.infer<typeof ServiceFieldTypeSchema>;

/** The input a service asks for. The IMEI field has the key `imei`. */
export const ServiceFieldSchema = z.strictObject({
  key: z.string(),
  label: z.string(),
  type: ServiceFieldTypeSchema,
  required: z.boolean(),
  /** serial: allowed lengths; text/username: max length; lines: max length of each line. */
  minLength: z.number().int().optional(),
  maxLength: z.number().int().optional(),
  /** serial: letters allowed besides digits (default true). */
  allowLetters: z.boolean().optional(),
  /** number: bounds. */
  min: z.number().int().optional(),
  max: z.number().int().optional(),
  /** select: the choices. */
  options: z.array(z.string()).optional(),
  /** Shown under the field. */
  hint: z.string().optional(),
  /** This field is the identifier the duplicate-in-flight rule looks at. */
  identifier: z.boolean().optional(),
  /** file: the largest file it takes, in bytes (default 10 MB). */
  maxBytes: z.number().int().optional(),
  /** file: the extensions it takes (lower case, no dot); any when absent. */
  extensions: z.array(z.string()).optional(),
});
export type ServiceField = z.infer<typeof ServiceFieldSchema>;

export const SERVICE_FIELD_TYPES = ServiceFieldTypeSchema.options;

export const MAX_SERVICE_FIELDS = 10;
export const SERIAL_DEFAULT_MIN = 8;
export const SERIAL_DEFAULT_MAX = 24;
export const USERNAME_DEFAULT_MAX = 64;
export const TEXT_DEFAULT_MAX = 500;
/** Lines of a list field, at most. */
export const LINES_MAX = 10_000;
export const URL_MAX = 2048;
export const EMAIL_MAX = 254;

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
    maxBytes: optionalInt('El tamaño máximo', 1, FILE_MAX_BYTES),
    extensions: z
      .array(
        z
          .string({ error: 'Cada extensión debe ser un texto.' })
          .trim()
          .toLowerCase()
          .transform((e) => e.replace(/^\./, ''))
          .pipe(
            z
              .string()
              .regex(
                FILE_EXTENSION_PATTERN,
                'Cada extensión: de 1 a 10 letras o números, sin el punto (por ejemplo «bin»).',
              ),
          ),
        { error: 'Las extensiones deben ser una lista.' },
      )
      .max(FILE_EXTENSIONS_MAX, `Como máximo ${FILE_EXTENSIONS_MAX} extensiones.`)
      .optional(),
  })
  .superRefine((f, ctx) => {
    if (f.type === 'file' && f.identifier) {
      ctx.addIssue({
        code: 'custom',
        path: ['identifier'],
        message: 'Un archivo no puede ser el identificador de la orden.',
      });
    }
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

/** The list of a service's fields: at most ten, and at most one file (DHRU sends one). */
export const serviceFieldListSchema = z
  .array(serviceFieldSchema, { error: 'Los campos deben ser una lista.' })
  .max(MAX_SERVICE_FIELDS, `Un servicio puede pedir como máximo ${MAX_SERVICE_FIELDS} campos.`)
  .superRefine((fields, ctx) => {
    const files = fields.flatMap((f, i) => (f.type === 'file' ? [i] : []));
    if (files.length > 1) {
      ctx.addIssue({
        code: 'custom',
        path: [files[1] ?? 0, 'type'],
        message: 'Un servicio puede pedir como máximo un archivo.',
      });
    }
  });

/** The first key that appears twice, if any. */
export function duplicateFieldKey(fields: Pick<ServiceField, 'key'>[]): string | null {
  const seen = new Set<string>();
  for (const { key } of fields) {
    if (seen.has(key)) return key;
    seen.add(key);
  }
  return null;
}
