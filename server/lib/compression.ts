// Compression of the text the server writes on the fly (API JSON, CSV, HTML, the docs page):
// brotli when the client takes it, gzip otherwise, above a small size. Built assets are
// compressed once at build time (scripts/precompress.mjs) and served as they are.
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { MiddlewareHandler } from 'hono';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** Smaller bodies are sent as they are: compression would cost more than it saves. */
export const MIN_COMPRESSED_BYTES = 1024;

const COMPRESSIBLE =
  /^(?:text\/|application\/(?:json|javascript|xml|[\w.+-]+\+(?:json|xml))|image\/svg\+xml)/i;

export type Encoding = 'br' | 'gzip';

/** The best encoding the client accepts (q=0 refuses one), or null. */
export function chooseEncoding(acceptEncoding: string | undefined): Encoding | null {
  if (!acceptEncoding) return null;
  const accepted = new Map<string, number>();
  for (const part of acceptEncoding.split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
    accepted.set(name.trim(), q === undefined ? 1 : Number(q));
  }
  const weight = (name: Encoding) => accepted.get(name) ?? accepted.get('*') ?? 0;
  if (weight('br') > 0 && weight('br') >= weight('gzip')) return 'br';
  if (weight('gzip') > 0) return 'gzip';
  return null;
}

/** Compresses one body (dynamic content: a quick brotli level, not the densest). */
export async function compressBody(body: Uint8Array, encoding: Encoding): Promise<Buffer> {
  return encoding === 'br'
    ? brotli(body, {
        params: {
          [zlib.constants.BROTLI_PARAM_QUALITY]: 5,
          [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.byteLength,
        },
      })
    : gzip(body, { level: 6 });
}

/**
 * Compresses compressible responses that are not already encoded. Every compressible response
 * says `Vary: Accept-Encoding`, compressed or not, so caches keep the variants apart.
 */
export function compression(): MiddlewareHandler {
  return async (c, next) => {
    await next();
    const res = c.res;
    const type = res.headers.get('content-type') ?? '';
    if (!res.body || !COMPRESSIBLE.test(type) || res.headers.has('content-encoding')) return;
    if (c.req.method === 'HEAD' || res.status === 204 || res.status === 304) return;
    // A receipt or any other download keeps its exact bytes.
    if (/attachment/i.test(res.headers.get('content-disposition') ?? '') && !/csv/i.test(type))
      return;
    const vary = res.headers.get('vary');
    if (!vary || !/accept-encoding/i.test(vary))
      res.headers.set('Vary', vary ? `${vary}, Accept-Encoding` : 'Accept-Encoding');
    const encoding = chooseEncoding(c.req.header('accept-encoding'));
    if (!encoding) return;
    const declared = Number(res.headers.get('content-length') ?? NaN);
    if (Number.isFinite(declared) && declared < MIN_COMPRESSED_BYTES) return;
    const body = new Uint8Array(await res.arrayBuffer());
    const small = body.byteLength < MIN_COMPRESSED_BYTES;
    const headers = new Headers(res.headers);
    // zlib answers a Buffer over a plain ArrayBuffer.
    const out = small ? body : ((await compressBody(body, encoding)) as Uint8Array<ArrayBuffer>);
    if (!small) headers.set('Content-Encoding', encoding);
    headers.set('Content-Length', String(out.byteLength));
    // Replaced whole: Hono would otherwise copy the old headers (its length) onto the new one.
    c.res = undefined;
    c.res = new Response(out, { status: res.status, statusText: res.statusText, headers });
  };
}
