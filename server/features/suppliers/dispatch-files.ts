// The file an order forwards to a supplier: a route maps a file field to the parameter FILE
// (server/suppliers/dhru.ts FILE_PARAM), whose value is the order's upload id; just before the
// call it becomes DHRU placefileorder's FILENAME and FILEDATA (base64 of the bytes). The log
// never keeps the bytes (the adapter logs their size).
import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { orderFile } from '../../db/schema/files';
import { FILE_PARAM } from '../../suppliers/dhru';

/**
 * `params` with FILE replaced by FILENAME and FILEDATA of the order's file. A file that is gone
 * leaves neither, and the adapter refuses to send (nothing is sent without the file).
 */
export async function withFileData(
  db: Db,
  orderId: string,
  params: Record<string, string>,
): Promise<Record<string, string>> {
  const uploadId = params[FILE_PARAM];
  if (uploadId === undefined) return params;
  const { [FILE_PARAM]: _id, ...rest } = params;
  const [file] = await db
    .select({ name: orderFile.name, data: orderFile.data })
    .from(orderFile)
    .where(and(eq(orderFile.id, uploadId), eq(orderFile.orderId, orderId)));
  if (!file) return rest;
  return { ...rest, FILENAME: file.name, FILEDATA: file.data.toString('base64') };
}
