// Files customers give for a service's file field (docs/domain.md §4, "File fields"): uploaded
// for one service and field within that field's limits, checked by their content where it can
// be recognised, kept in the database (instances share no disk), taken by exactly one order in
// the order's own transaction, and only ever sent back as a download to the order's owner and
// to admins.
import { createHash } from 'node:crypto';
import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import {
  cleanFileName,
  fileExtension,
  fileProblem,
  isUploadId,
  PENDING_UPLOAD_HOURS,
  PENDING_UPLOADS_MAX,
} from '../../../shared/files';
import type { ServiceField } from '../../../shared/schemas/service-fields';
import type { Db, Tx } from '../../db/client';
import { order, service } from '../../db/schema/catalogue';
import { orderFile } from '../../db/schema/files';
import { AppError } from '../../lib/errors';

/** What a customer (or admin) sees of an order's file. */
export type OrderFileInfo = {
  id: string;
  fieldKey: string;
  name: string;
  size: number;
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function ascii(text: string): number[] {
  return [...text].map((ch) => ch.charCodeAt(0));
}

function startsWith(bytes: Uint8Array, signature: readonly number[], offset = 0): boolean {
  if (bytes.length < offset + signature.length) return false;
  return signature.every((b, i) => bytes[offset + i] === b);
}

type Kind = { name: string; mime: string };

const KINDS = {
  zip: { name: 'zip', mime: 'application/zip' },
  pdf: { name: 'pdf', mime: 'application/pdf' },
  png: { name: 'png', mime: 'image/png' },
  jpeg: { name: 'jpeg', mime: 'image/jpeg' },
  gif: { name: 'gif', mime: 'image/gif' },
  webp: { name: 'webp', mime: 'image/webp' },
  gzip: { name: 'gzip', mime: 'application/gzip' },
  sevenZip: { name: '7z', mime: 'application/x-7z-compressed' },
  rar: { name: 'rar', mime: 'application/vnd.rar' },
  exe: { name: 'exe', mime: 'application/vnd.microsoft.portable-executable' },
  elf: { name: 'elf', mime: 'application/x-executable' },
} as const satisfies Record<string, Kind>;

/** What the first bytes say the file is; null when they say nothing we know. */
export function sniffFile(bytes: Uint8Array): Kind | null {
  if (startsWith(bytes, [0x50, 0x4b, 0x03, 0x04]) || startsWith(bytes, [0x50, 0x4b, 0x05, 0x06]))
    return KINDS.zip;
  if (startsWith(bytes, ascii('%PDF-'))) return KINDS.pdf;
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return KINDS.png;
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return KINDS.jpeg;
  if (startsWith(bytes, ascii('GIF87a')) || startsWith(bytes, ascii('GIF89a'))) return KINDS.gif;
  if (startsWith(bytes, ascii('RIFF')) && startsWith(bytes, ascii('WEBP'), 8)) return KINDS.webp;
  if (startsWith(bytes, [0x1f, 0x8b])) return KINDS.gzip;
  if (startsWith(bytes, [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c])) return KINDS.sevenZip;
  if (startsWith(bytes, ascii('Rar!\u001a\u0007'))) return KINDS.rar;
  if (startsWith(bytes, ascii('MZ'))) return KINDS.exe;
  if (startsWith(bytes, [0x7f, 0x45, 0x4c, 0x46])) return KINDS.elf;
  return null;
}

/** Extensions whose content we can recognise, and the kinds they must be. */
const EXPECTED: Record<string, readonly Kind[]> = {
  zip: [KINDS.zip],
  apk: [KINDS.zip],
  jar: [KINDS.zip],
  docx: [KINDS.zip],
  xlsx: [KINDS.zip],
  pdf: [KINDS.pdf],
  png: [KINDS.png],
  jpg: [KINDS.jpeg],
  jpeg: [KINDS.jpeg],
  gif: [KINDS.gif],
  webp: [KINDS.webp],
  gz: [KINDS.gzip],
  tgz: [KINDS.gzip],
  '7z': [KINDS.sevenZip],
  rar: [KINDS.rar],
  exe: [KINDS.exe],
  dll: [KINDS.exe],
};

/** Extensions of plain text: the bytes must be text (UTF-8, no NUL). */
const TEXT_EXTENSIONS = new Set(['txt', 'log', 'csv', 'json', 'xml', 'ini', 'cfg']);

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Why the bytes are not what the name says (a ".zip" that is not a zip, a ".txt" with binary
 * content, a program named as something else); null when they are, or when we cannot tell.
 */
export function contentProblem(name: string, bytes: Uint8Array): string | null {
  const ext = fileExtension(name);
  const kind = sniffFile(bytes);
  const expected = EXPECTED[ext];
  const wrong = `El contenido del archivo no corresponde a su extensión (.${ext}).`;
  if (expected) return kind && expected.includes(kind) ? null : wrong;
  if (TEXT_EXTENSIONS.has(ext)) {
    if (bytes.includes(0)) return wrong;
    try {
      UTF8.decode(bytes);
      return null;
    } catch {
      return wrong;
    }
  }
  // A program dressed as something else ("firmware.bin" that is a Windows program).
  if (kind === KINDS.exe || kind === KINDS.elf)
    return `El archivo es un programa; no se acepta como .${ext || 'archivo sin extensión'}.`;
  return null;
}

/** The service's file field `key`, or a 404 / field error. */
async function fileField(db: Db, serviceId: string, key: string): Promise<ServiceField> {
  const [svc] = UUID.test(serviceId)
    ? await db
        .select({ fields: service.fields })
        .from(service)
        .where(and(eq(service.id, serviceId), eq(service.active, true)))
    : [];
  if (!svc) throw new AppError('NOT_FOUND', 'El servicio no existe o no está disponible.');
  const field = svc.fields.find((f) => f.key === key && f.type === 'file');
  if (!field)
    throw new AppError('VALIDATION_FAILED', undefined, {
      field: 'Este servicio no pide un archivo con esa clave.',
    });
  return field;
}

/** Deletes uploads no order took in time (any customer's). */
async function deleteStaleUploads(db: Db | Tx): Promise<void> {
  await db
    .delete(orderFile)
    .where(
      and(
        isNull(orderFile.orderId),
        sql`${orderFile.createdAt} < now() - make_interval(hours => ${PENDING_UPLOAD_HOURS})`,
      ),
    );
}

/**
 * Checks a file against the field (size, extension, content) and stores it, waiting for an
 * order; `fieldName` is the key the message of a refused file goes under.
 */
export async function storeOrderFile(
  db: Db,
  userId: string,
  input: { serviceId: string; fieldKey: string; name: string; bytes: Uint8Array },
  fieldName = 'file',
): Promise<OrderFileInfo & { serviceId: string }> {
  const field = await fileField(db, input.serviceId, input.fieldKey);
  const name = cleanFileName(input.name);
  const problem =
    fileProblem(field, { name, size: input.bytes.byteLength }) ?? contentProblem(name, input.bytes);
  if (problem) throw new AppError('VALIDATION_FAILED', problem, { [fieldName]: problem });
  await deleteStaleUploads(db);
  const [pending] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(orderFile)
    .where(and(eq(orderFile.userId, userId), isNull(orderFile.orderId)));
  if ((pending?.n ?? 0) >= PENDING_UPLOADS_MAX)
    throw new AppError(
      'CONFLICT',
      `Tienes ${PENDING_UPLOADS_MAX} archivos subidos sin usar en una orden. Usa alguno o espera un día a que caduquen.`,
    );
  const bytes = Buffer.from(input.bytes.buffer, input.bytes.byteOffset, input.bytes.byteLength);
  const [row] = await db
    .insert(orderFile)
    .values({
      userId,
      serviceId: input.serviceId,
      fieldKey: field.key,
      name,
      contentType: sniffFile(input.bytes)?.mime ?? 'application/octet-stream',
      size: bytes.byteLength,
      sha256: createHash('sha256').update(bytes).digest('hex'),
      data: bytes,
    })
    .returning({ id: orderFile.id, fieldKey: orderFile.fieldKey, name: orderFile.name });
  if (!row) throw new Error('order_file insert returned nothing');
  return { ...row, size: bytes.byteLength, serviceId: input.serviceId };
}

/**
 * Gives the order the files its file fields name (upload ids), in the order's transaction: each
 * must be the customer's, uploaded for this service and field, not taken by another order and
 * not expired, and still within the field's limits. A refusal rolls the order back.
 */
export async function attachOrderFiles(
  tx: Tx,
  input: {
    orderId: string;
    userId: string;
    serviceId: string;
    fields: ServiceField[];
    values: Record<string, string>;
  },
): Promise<void> {
  for (const field of input.fields) {
    if (field.type !== 'file') continue;
    const id = input.values[field.key];
    if (id === undefined || !isUploadId(id)) continue;
    const [taken] = await tx
      .update(orderFile)
      .set({ orderId: input.orderId, attachedAt: new Date() })
      .where(
        and(
          eq(orderFile.id, id),
          eq(orderFile.userId, input.userId),
          eq(orderFile.serviceId, input.serviceId),
          eq(orderFile.fieldKey, field.key),
          isNull(orderFile.orderId),
          sql`${orderFile.createdAt} >= now() - make_interval(hours => ${PENDING_UPLOAD_HOURS})`,
        ),
      )
      .returning({ name: orderFile.name, size: orderFile.size });
    const problem = taken
      ? fileProblem(field, taken)
      : 'No encontramos ese archivo: puede que ya se usara en otra orden o que caducara. Súbelo de nuevo.';
    if (problem) throw new AppError('VALIDATION_FAILED', undefined, { [field.key]: problem });
  }
}

/** The files an order took, by field. */
export async function orderFiles(db: Db | Tx, orderId: string): Promise<OrderFileInfo[]> {
  return db
    .select({
      id: orderFile.id,
      fieldKey: orderFile.fieldKey,
      name: orderFile.name,
      size: orderFile.size,
    })
    .from(orderFile)
    .where(eq(orderFile.orderId, orderId))
    .orderBy(asc(orderFile.fieldKey));
}

/** The files of many orders, by order (for a page of the admin's queue). */
export async function filesOfOrders(
  db: Db | Tx,
  orderIds: string[],
): Promise<Map<string, OrderFileInfo[]>> {
  const found = new Map<string, OrderFileInfo[]>();
  if (orderIds.length === 0) return found;
  const rows = await db
    .select({
      orderId: orderFile.orderId,
      id: orderFile.id,
      fieldKey: orderFile.fieldKey,
      name: orderFile.name,
      size: orderFile.size,
    })
    .from(orderFile)
    .where(inArray(orderFile.orderId, orderIds))
    .orderBy(asc(orderFile.fieldKey));
  for (const { orderId, ...file } of rows) {
    if (orderId === null) continue;
    found.set(orderId, [...(found.get(orderId) ?? []), file]);
  }
  return found;
}

/** An order's file with its bytes, for its owner (`userId`) or an admin (null); else 404. */
export async function orderFileForDownload(
  db: Db,
  orderId: string,
  fileId: string,
  userId: string | null,
): Promise<{ name: string; size: number; data: Buffer }> {
  const [row] = await db
    .select({ name: orderFile.name, size: orderFile.size, data: orderFile.data })
    .from(orderFile)
    .innerJoin(order, eq(order.id, orderFile.orderId))
    .where(
      and(
        eq(orderFile.id, fileId),
        eq(orderFile.orderId, orderId),
        userId ? eq(order.userId, userId) : undefined,
      ),
    );
  // Another customer's file answers like one that does not exist.
  if (!row) throw new AppError('NOT_FOUND', 'El archivo no existe.');
  return row;
}

/** The file an order sent to a supplier carries in its field `key` (name and bytes). */
export async function orderFileOfField(
  db: Db | Tx,
  orderId: string,
  key: string,
): Promise<{ name: string; data: Buffer } | null> {
  const [row] = await db
    .select({ name: orderFile.name, data: orderFile.data })
    .from(orderFile)
    .where(and(eq(orderFile.orderId, orderId), eq(orderFile.fieldKey, key)));
  return row ?? null;
}
