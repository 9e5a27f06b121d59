// Mercado Pago's webhook signature, as documented ("Webhooks" → "Validar origen de la
// notificación"): the `x-signature` header is `ts=<unix seconds>,v1=<hex HMAC-SHA256>`, and the
// HMAC, keyed with the webhook's secret, covers the manifest
// `id:<data.id>;request-id:<x-request-id>;ts:<ts>;`. A part whose value the notification does not
// carry is left out of the manifest. No test-runner imports: the fake signs with these too.
import { createHmac, timingSafeEqual } from 'node:crypto';

export type ParsedSignature = { ts: string; v1: string };

/**
 * `ts=1704908010,v1=618c…` → { ts, v1 }. The parts may come in any order, with spaces around
 * them; unknown parts are ignored. Null when `ts` or `v1` is missing, empty or malformed.
 */
export function parseSignatureHeader(header: string | null | undefined): ParsedSignature | null {
  if (!header) return null;
  let ts: string | null = null;
  let v1: string | null = null;
  for (const part of header.split(',')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const key = part.slice(0, eq).trim().toLowerCase();
    const value = part.slice(eq + 1).trim();
    if (key === 'ts') ts = value;
    else if (key === 'v1') v1 = value.toLowerCase();
  }
  if (!ts || !/^\d{1,20}$/.test(ts)) return null;
  if (!v1 || !/^[0-9a-f]{64}$/.test(v1)) return null;
  return { ts, v1 };
}

/**
 * The id the manifest names: as Mercado Pago documents, an alphanumeric id is lower-cased
 * (payment ids are digits, so they are unchanged). Null for an empty id.
 */
export function manifestDataId(id: string | null | undefined): string | null {
  if (id === null || id === undefined) return null;
  const trimmed = id.trim();
  if (trimmed === '') return null;
  return /^[A-Za-z0-9]+$/.test(trimmed) ? trimmed.toLowerCase() : trimmed;
}

/** `id:<dataId>;request-id:<requestId>;ts:<ts>;`, leaving out the parts that are absent. */
export function signatureManifest(input: {
  dataId: string | null;
  requestId: string | null;
  ts: string;
}): string {
  let manifest = '';
  if (input.dataId) manifest += `id:${input.dataId};`;
  if (input.requestId) manifest += `request-id:${input.requestId};`;
  manifest += `ts:${input.ts};`;
  return manifest;
}

/** The hex HMAC-SHA256 of the manifest with the webhook secret (what `v1` must be). */
export function signManifest(secret: string, manifest: string): string {
  return createHmac('sha256', secret).update(manifest, 'utf8').digest('hex');
}

/** Whether `x-signature` is Mercado Pago's for this data id and request id (constant time). */
export function verifySignature(input: {
  secret: string;
  header: string | null | undefined;
  dataId: string | null;
  requestId: string | null;
}): boolean {
  const parsed = parseSignatureHeader(input.header);
  if (!parsed) return false;
  const expected = Buffer.from(
    signManifest(
      input.secret,
      signatureManifest({ dataId: input.dataId, requestId: input.requestId, ts: parsed.ts }),
    ),
    'hex',
  );
  const given = Buffer.from(parsed.v1, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** The `x-signature` header Mercado Pago would send (the fake and the tests sign with it). */
export function signatureHeader(input: {
  secret: string;
  dataId: string | null;
  requestId: string | null;
  ts: string;
}): string {
  const v1 = signManifest(input.secret, signatureManifest(input));
  return `ts=${input.ts},v1=${v1}`;
}
