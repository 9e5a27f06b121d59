// Building blocks of path and query parameters, used by the route definitions (validation and
// the OpenAPI document) and by the web app when it builds URLs.
import { z } from 'zod';

/** A `:id` path parameter: a UUID as PostgreSQL writes it. Anything else answers 404. */
export function idParams(description: string) {
  return z.object({ id: z.guid().describe(description) });
}

const MAX_BIGINT = 9_223_372_036_854_775_807n;

/** `?cursor=` of a list paged by a bigint id: the `nextCursor` of the previous page. */
export const IdCursorSchema = z
  .string()
  .regex(/^\d{1,19}$/, 'El cursor de la página no es válido.')
  .refine(
    // zod runs a refinement even when the pattern failed: check the shape again.
    (v) => /^\d{1,19}$/.test(v) && BigInt(v) <= MAX_BIGINT,
    'El cursor de la página no es válido.',
  )
  .describe(
    'El `nextCursor` de la página anterior, para pedir la siguiente. Sin él se pide la primera página.',
  );

/** `?cursor=` of a keyset list: an opaque token, checked in full by the service that reads it. */
export const OpaqueCursorSchema = z
  .string()
  .max(200, 'El cursor de la página no es válido.')
  .regex(/^[A-Za-z0-9_-]+$/, 'El cursor de la página no es válido.')
  .describe(
    'El `nextCursor` de la página anterior, para pedir la siguiente. Sin él se pide la primera página.',
  );

/** Earliest and latest instants a date filter accepts (PostgreSQL's timestamptz is wider). */
const MIN_TIME = Date.UTC(2000, 0, 1);
const MAX_TIME = Date.UTC(9999, 11, 31, 23, 59, 59);

/** An ISO 8601 date-time (or date) within years 2000–9999, as a Date. */
export function dateTimeQuery(description: string, example: string) {
  return z
    .string()
    .max(40, 'La fecha del filtro no es válida.')
    .regex(
      /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,6})?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/,
      'La fecha del filtro no es válida: usa el formato 2026-05-01T00:00:00Z.',
    )
    .refine((v) => {
      const t = Date.parse(v);
      return Number.isFinite(t) && t >= MIN_TIME && t <= MAX_TIME;
    }, 'La fecha del filtro no es válida o está fuera de rango.')
    .meta({ description, example, format: 'date-time' });
}

/**
 * `?name=a,b`: one value or several separated by commas, each one of `allowed` (repeats dropped;
 * an empty list is no filter). Anything else is refused with `message`.
 */
export function enumListQuery<T extends string>(
  allowed: readonly T[],
  message: string,
  meta: { description: string; example: string },
) {
  return z
    .string()
    .max(200, message)
    .transform((v, ctx) => {
      const list = [
        ...new Set(
          v
            .split(',')
            .map((s) => s.trim())
            .filter(Boolean),
        ),
      ];
      if (list.some((s) => !(allowed as readonly string[]).includes(s))) {
        ctx.addIssue({ code: 'custom', message });
        return z.NEVER;
      }
      return list.length ? (list as T[]) : undefined;
    })
    .optional()
    .meta({ ...meta, pattern: `^(${allowed.join('|')})(,(${allowed.join('|')}))*$` });
}

/** The two forms of every CSV export (server/lib/csv.ts). */
export const CSV_FORMATS = ['excel', 'rfc4180'] as const;
export type CsvFormat = (typeof CSV_FORMATS)[number];

/** Whether `zone` is an IANA time zone this runtime knows ("America/Mexico_City"). */
export function isTimeZone(zone: string): boolean {
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]{0,63}$/.test(zone)) return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** `?format=&tz=` of a CSV export. */
export const CsvExportQuerySchema = z.object({
  format: z
    .enum(CSV_FORMATS, { error: 'El formato no es válido: usa excel o rfc4180.' })
    .optional()
    .meta({
      description:
        '`excel` (por defecto): el archivo que abre tal cual un Excel en español: UTF-8 con BOM, celdas separadas por `;`, fechas `dd/mm/aaaa hh:mm` en la zona `tz`, importes con coma decimal y nombres en español. `rfc4180`: CSV simple para programas: separado por comas, sin BOM, fechas ISO 8601 en UTC, importes con punto decimal y los códigos de la API.',
      example: 'rfc4180',
    }),
  tz: z
    .string()
    .max(64, 'La zona horaria no es válida (por ejemplo America/Mexico_City).')
    .refine(isTimeZone, 'La zona horaria no es válida (por ejemplo America/Mexico_City).')
    .optional()
    .meta({
      description:
        'Zona horaria IANA de las fechas del formato `excel` (por ejemplo `America/Mexico_City`); sin ella, UTC.',
      example: 'America/Mexico_City',
    }),
});
export type CsvExportQuery = z.output<typeof CsvExportQuerySchema>;
