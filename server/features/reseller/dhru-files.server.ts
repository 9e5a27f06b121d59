// DHRU file services on our server (docs/protocols.md §2.4, §6): a service whose fields include a
// file is a "file service" — listed by `fileservicelist` (not by `imeiservicelist`, whose
// placeimeiorder cannot carry a file) and ordered with `placefileorder`, whose FILENAME and
// FILEDATA (base64 of the file) fill the file field. The file goes through the same checks as an
// upload from the web (shared/files.ts, order-files.service.ts).
import {
  allowedExtensionsText,
  FILE_MAX_BYTES,
  fileMaxBytes,
  formatBytes,
} from '../../../shared/files';
import type { ServiceField } from '../../../shared/schemas/service-fields';
import { and, eq, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { orderFile } from '../../db/schema/files';
import { AppError } from '../../lib/errors';
import { paramLookup } from '../../suppliers/dhru-wire';
import { storeOrderFile } from '../orders/order-files.service';
import { textAsHtml, type ServiceRow } from './reseller.service';

/**
 * The DHRU endpoint's body limit: the largest file as base64 (4/3), with room for urlencoded
 * escapes of `+` and `/` and the other fields.
 */
export const DHRU_BODY_LIMIT = Math.ceil(FILE_MAX_BYTES * 1.5) + 1024 * 1024;

/** The service's file field, if it has one. */
export function fileFieldOf(svc: Pick<ServiceRow, 'fields'>): ServiceField | undefined {
  return svc.fields.find((f) => f.type === 'file');
}

/** A service sold per order that asks for a file: a DHRU file service. */
export function isFileService(svc: Pick<ServiceRow, 'fields' | 'unit'>): boolean {
  return svc.unit === 'order' && fileFieldOf(svc) !== undefined;
}

/** INFO of a file service: its description, then what files it takes (HTML, escaped). */
export function fileServiceInfo(svc: ServiceRow): string {
  const field = fileFieldOf(svc);
  if (!field) return textAsHtml(svc.description);
  const extensions = allowedExtensionsText(field);
  const limits = `Archivo: ${extensions ? `${extensions}; ` : ''}máximo ${formatBytes(fileMaxBytes(field))}.`;
  return textAsHtml(`${svc.description}\n${limits}`);
}

/**
 * FILEDATA: standard or url-safe base64, padded or not, line breaks allowed (PHP's chunk_split);
 * null when it is not base64 or holds nothing.
 */
export function decodeFileData(raw: string): Buffer | null {
  const compact = raw.replace(/[\r\n\t ]+/g, '');
  if (compact === '' || !/^[A-Za-z0-9+/_-]*={0,2}$/.test(compact)) return null;
  const body = compact.replace(/=+$/, '');
  if (body.length % 4 === 1) return null;
  const bytes = Buffer.from(body.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  return bytes.byteLength > 0 ? bytes : null;
}

export type DhruFileStored =
  { ok: true; id: string; fieldKey: string } | { ok: false; message: string; full: string };

/** Stores the file of a `placefileorder` for the service's file field, as an upload would. */
export async function storeDhruFile(
  db: Db,
  userId: string,
  svc: ServiceRow,
  params: Record<string, string>,
): Promise<DhruFileStored> {
  const field = fileFieldOf(svc);
  if (!field)
    return { ok: false, message: 'Invalid Service ID', full: 'No es un servicio de archivo.' };
  const data = decodeFileData(paramLookup(params, 'FILEDATA') ?? '');
  if (data === null)
    return {
      ok: false,
      message: 'Invalid parameters',
      full: 'FILEDATA debe ser el archivo en base64.',
    };
  // The PHP kit writes an empty FILENAME when the name has an "&" (DOMDocument drops it).
  const name = (paramLookup(params, 'FILENAME') ?? '').trim() || 'archivo';
  try {
    const stored = await storeOrderFile(db, userId, {
      serviceId: svc.id,
      fieldKey: field.key,
      name,
      bytes: new Uint8Array(data.buffer, data.byteOffset, data.byteLength),
    });
    return { ok: true, id: stored.id, fieldKey: stored.fieldKey };
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    const why = Object.values(err.fields ?? {})[0] ?? err.message;
    return err.code === 'VALIDATION_FAILED'
      ? { ok: false, message: 'Invalid File', full: why }
      : { ok: false, message: 'Order not accepted', full: why };
  }
}

/** Removes a stored file no order took (its order was refused). */
export async function dropUnusedFile(db: Db, id: string): Promise<void> {
  await db.delete(orderFile).where(and(eq(orderFile.id, id), isNull(orderFile.orderId)));
}
