// The attachments of a ticket message as the browser checks them before sending: the same limits
// the API applies (shared/schemas/tickets.ts). The API judges the type from the content; here the
// browser's type, or the name's extension when the browser gives none, is enough to warn early.
import {
  TICKET_FILE_MAX_BYTES,
  TICKET_FILE_TYPES,
  TICKET_FILES_MAX,
} from '../../../shared/schemas/tickets';

/** What the check needs of a File (a plain object in tests). */
export type FileLike = { name: string; size: number; type: string };

const EXTENSION_TYPES: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  pdf: 'application/pdf',
};

/** The `accept` of the file input. */
export const TICKET_FILE_ACCEPT = [...TICKET_FILE_TYPES, '.png,.jpg,.jpeg,.gif,.webp,.pdf'].join(
  ',',
);

const MAX_MB = TICKET_FILE_MAX_BYTES / (1024 * 1024);

/** The hint under the file input. */
export const TICKET_FILES_HINT = `Hasta ${TICKET_FILES_MAX} archivos: imágenes (PNG, JPG, GIF, WebP) o PDF, ${MAX_MB} MB cada uno.`;

function typeOf(file: FileLike): string {
  if (file.type) return file.type.toLowerCase();
  const ext = file.name.toLowerCase().split('.').pop() ?? '';
  return EXTENSION_TYPES[ext] ?? '';
}

/** «1.2 MB», «830 KB»: a file's size for people. */
export function fileSize(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
  return `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

/**
 * Why these files cannot be sent (the first reason found, in Spanish), or null when they can.
 * Empty files count as not chosen (a file input without a choice sends one).
 */
export function checkTicketFiles(files: readonly FileLike[]): string | null {
  const chosen = files.filter((f) => f.size > 0 || f.name !== '');
  if (chosen.length > TICKET_FILES_MAX)
    return `Adjunta como mucho ${TICKET_FILES_MAX} archivos por mensaje.`;
  for (const file of chosen) {
    if (file.size === 0) return `«${file.name}» está vacío.`;
    if (!(TICKET_FILE_TYPES as readonly string[]).includes(typeOf(file)))
      return `«${file.name}» no es una imagen ni un PDF. Adjunta imágenes (PNG, JPG, GIF, WebP) o PDF.`;
    if (file.size > TICKET_FILE_MAX_BYTES)
      return `«${file.name}» pesa ${fileSize(file.size)}; el máximo es ${MAX_MB} MB por archivo.`;
  }
  return null;
}

/** The files of a form's `files` field that were really chosen. */
export function chosenFiles(form: FormData, name = 'files'): File[] {
  return form
    .getAll(name)
    .filter((v): v is File => typeof v !== 'string' && (v.size > 0 || v.name !== ''));
}
