// Attachments of support tickets: up to 3 per message, images (PNG, JPEG, GIF, WebP) and PDF of
// up to 5 MB each, their type judged from their bytes (never the name or the declared type).
import { createHash } from 'node:crypto';
import { cleanFileName, formatBytes } from '../../../shared/files';
import {
  TICKET_FILE_MAX_BYTES,
  TICKET_FILE_TYPES,
  TICKET_FILES_MAX,
} from '../../../shared/schemas/tickets';
import { AppError } from '../../lib/errors';
import { sniffFile } from '../orders/order-files.service';

export type CheckedTicketFile = {
  name: string;
  contentType: string;
  size: number;
  sha256: string;
  data: Buffer;
};

/** Bytes of a multipart request with TICKET_FILES_MAX files at their limit, plus the text fields. */
export const TICKET_FORM_BODY_LIMIT = TICKET_FILES_MAX * TICKET_FILE_MAX_BYTES + 256 * 1024;

function refuse(message: string): never {
  throw new AppError('VALIDATION_FAILED', message, { files: message });
}

/** Reads and checks a message's files; the first refused one answers 400 naming it. */
export async function checkTicketFiles(files: readonly File[]): Promise<CheckedTicketFile[]> {
  if (files.length > TICKET_FILES_MAX)
    refuse(`Puedes adjuntar como mucho ${TICKET_FILES_MAX} archivos por mensaje.`);
  const checked: CheckedTicketFile[] = [];
  for (const file of files) {
    const name = cleanFileName(file.name);
    if (file.size === 0) refuse(`El archivo «${name}» está vacío.`);
    if (file.size > TICKET_FILE_MAX_BYTES)
      refuse(
        `El archivo «${name}» es demasiado grande (máximo ${formatBytes(TICKET_FILE_MAX_BYTES)}).`,
      );
    const bytes = new Uint8Array(await file.arrayBuffer());
    const kind = sniffFile(bytes);
    if (!kind || !(TICKET_FILE_TYPES as readonly string[]).includes(kind.mime))
      refuse(
        `El archivo «${name}» no es una imagen (PNG, JPEG, GIF o WebP) ni un PDF: solo se aceptan esos tipos.`,
      );
    const data = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    checked.push({
      name,
      contentType: kind.mime,
      size: data.byteLength,
      sha256: createHash('sha256').update(data).digest('hex'),
      data,
    });
  }
  return checked;
}
