// File fields (docs/domain.md §4, "File fields"): a service may ask for one file (a firmware
// dump, a log, a backup). The limits and the checks a chosen file must pass, shared by the order
// form (before uploading) and the server (on upload and when an order takes the file). Pure
// TypeScript: no Node or React imports.

/** A file field's limits (shared/schemas/service-fields.ts defines the field itself). */
export type FileLimits = { maxBytes?: number | undefined; extensions?: string[] | undefined };

/** A file field's size limit when the admin sets none. */
export const FILE_DEFAULT_MAX_BYTES = 10 * 1024 * 1024;
/** The largest file any field may take (the database keeps the bytes). */
export const FILE_MAX_BYTES = 20 * 1024 * 1024;
/** Extensions a field may list, at most. */
export const FILE_EXTENSIONS_MAX = 20;
/** One allowed extension, without the dot, lower case. */
export const FILE_EXTENSION_PATTERN = /^[a-z0-9]{1,10}$/;
/** Longest file name kept. */
export const FILE_NAME_MAX = 200;
/** Files uploaded and not yet used by an order, per customer, at most. */
export const PENDING_UPLOADS_MAX = 20;
/** An upload not used by an order within this time is deleted. */
export const PENDING_UPLOAD_HOURS = 24;

/** What a file field's value is: the id the upload answered (a UUID). */
const UPLOAD_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUploadId(value: string): boolean {
  return UPLOAD_ID.test(value);
}

/** "10 MB", "512 KB", "900 bytes": sizes as people read them. */
export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) {
    const mb = bytes / 1024 / 1024;
    return `${Number.isInteger(mb) ? mb : mb.toFixed(1)} MB`;
  }
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${bytes} bytes`;
}

/** The field's size limit. */
export function fileMaxBytes(field: FileLimits): number {
  return Math.min(field.maxBytes ?? FILE_DEFAULT_MAX_BYTES, FILE_MAX_BYTES);
}

/** The extension of a file name, lower case, without the dot; '' when it has none. */
export function fileExtension(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(dot + 1).toLowerCase() : '';
}

/**
 * A file name as we keep it: the last path segment, without control or bidirectional
 * characters, trimmed, at most FILE_NAME_MAX characters (the extension kept); 'archivo' when
 * nothing is left.
 */
export function cleanFileName(name: string): string {
  const base = (name.split(/[\\/]/).pop() ?? '')
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  if (base === '' || base === '.' || base === '..') return 'archivo';
  if (base.length <= FILE_NAME_MAX) return base;
  const ext = fileExtension(base);
  const tail = ext ? `.${ext}` : '';
  return `${base.slice(0, FILE_NAME_MAX - tail.length)}${tail}`;
}

/** "Formatos: .bin, .zip" for the form's hint; '' when any extension is allowed. */
export function allowedExtensionsText(field: FileLimits): string {
  const list = field.extensions ?? [];
  return list.length ? list.map((e) => `.${e}`).join(', ') : '';
}

/**
 * Why a chosen file cannot go in this field (empty, too large, an extension it does not take),
 * in Spanish; null when it can.
 */
export function fileProblem(
  field: FileLimits,
  file: { name: string; size: number },
): string | null {
  if (file.size <= 0) return 'El archivo está vacío.';
  const max = fileMaxBytes(field);
  if (file.size > max) return `El archivo es demasiado grande (máximo ${formatBytes(max)}).`;
  const allowed = field.extensions ?? [];
  if (allowed.length > 0 && !allowed.includes(fileExtension(file.name))) {
    return `Este servicio solo acepta archivos ${allowedExtensionsText(field)}.`;
  }
  return null;
}
