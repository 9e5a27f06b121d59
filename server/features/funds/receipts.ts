import { randomBytes } from 'node:crypto';
import { mkdir, open, rename, rm, writeFile, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { AppError } from '../../lib/errors';
import {
  MAX_RECEIPT_BYTES,
  RECEIPT_TOO_LARGE_MESSAGE,
  RECEIPT_TYPE_MESSAGE,
} from '../../../shared/schemas/funds';

export type ReceiptUpload = { bytes: Uint8Array; mime: string };
export type ReceiptKind = { mime: string; ext: string };
export type CheckedReceipt = { bytes: Uint8Array; kind: ReceiptKind };

const KINDS = {
  png: { mime: 'image/png', ext: 'png' },
  jpeg: { mime: 'image/jpeg', ext: 'jpg' },
  webp: { mime: 'image/webp', ext: 'webp' },
  pdf: { mime: 'application/pdf', ext: 'pdf' },
} as const satisfies Record<string, ReceiptKind>;

const ALLOWED_MIMES: ReadonlySet<string> = new Set(Object.values(KINDS).map((k) => k.mime));
/** Declared types that say nothing (curl, some mobile browsers): the bytes decide alone. */
const UNSPECIFIED_MIMES: ReadonlySet<string> = new Set(['', 'application/octet-stream']);

function startsWith(bytes: Uint8Array, signature: readonly number[], offset = 0): boolean {
  if (bytes.length < offset + signature.length) return false;
  return signature.every((b, i) => bytes[offset + i] === b);
}

function ascii(text: string): number[] {
  return [...text].map((ch) => ch.charCodeAt(0));
}

/** The file's real type from its first bytes, or null when it is none of the accepted ones. */
export function sniffReceipt(bytes: Uint8Array): ReceiptKind | null {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return KINDS.png;
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return KINDS.jpeg;
  if (startsWith(bytes, ascii('RIFF')) && startsWith(bytes, ascii('WEBP'), 8)) return KINDS.webp;
  if (startsWith(bytes, ascii('%PDF-'))) return KINDS.pdf;
  return null;
}

/**
 * Accepts PNG, JPEG, WEBP or PDF up to 5 MB. The content decides (magic bytes); a declared type
 * outside the list is refused too. The stored type is the detected one, never the declared one.
 */
export function checkReceipt(receipt: ReceiptUpload): CheckedReceipt {
  if (receipt.bytes.byteLength > MAX_RECEIPT_BYTES) {
    throw new AppError('PAYLOAD_TOO_LARGE', RECEIPT_TOO_LARGE_MESSAGE);
  }
  const declared = (receipt.mime.split(';')[0] ?? '').trim().toLowerCase();
  const kind = sniffReceipt(receipt.bytes);
  if (!kind || (!UNSPECIFIED_MIMES.has(declared) && !ALLOWED_MIMES.has(declared))) {
    throw new AppError('VALIDATION_FAILED', RECEIPT_TYPE_MESSAGE, {
      receipt: RECEIPT_TYPE_MESSAGE,
    });
  }
  return { bytes: receipt.bytes, kind };
}

export function receiptsDir(dataDir: string): string {
  return path.join(dataDir, 'receipts');
}

/**
 * Writes the receipt under a temporary name, then renames it to `receipts/<paymentId>.<ext>`
 * (a rename is atomic: readers never see half a file). Returns the path relative to DATA_DIR.
 */
export async function storeReceipt(
  dataDir: string,
  paymentId: string,
  receipt: CheckedReceipt,
): Promise<string> {
  const dir = receiptsDir(dataDir);
  await mkdir(dir, { recursive: true });
  const finalName = `${paymentId}.${receipt.kind.ext}`;
  const temp = path.join(dir, `.${finalName}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    await writeFile(temp, receipt.bytes, { flag: 'wx', mode: 0o600 });
    await rename(temp, path.join(dir, finalName));
  } catch (err) {
    await rm(temp, { force: true });
    throw err;
  }
  return path.posix.join('receipts', finalName);
}

/** Removes a stored receipt (relative path as returned by storeReceipt); missing is fine. */
export async function removeReceipt(dataDir: string, relativePath: string): Promise<void> {
  await rm(resolveReceipt(dataDir, relativePath), { force: true });
}

function resolveReceipt(dataDir: string, relativePath: string): string {
  const dir = receiptsDir(dataDir);
  const absolute = path.resolve(dataDir, relativePath);
  // The path comes from our own rows, but never leave the receipts folder.
  if (path.dirname(absolute) !== dir)
    throw new Error(`receipt path outside receipts/: ${relativePath}`);
  return absolute;
}

/** Opens a stored receipt for reading; null when the file is gone. */
export async function openReceipt(
  dataDir: string,
  relativePath: string,
): Promise<{ handle: FileHandle; size: number } | null> {
  let handle: FileHandle;
  try {
    handle = await open(resolveReceipt(dataDir, relativePath), 'r');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
  try {
    const info = await handle.stat();
    return { handle, size: info.size };
  } catch (err) {
    await handle.close();
    throw err;
  }
}
