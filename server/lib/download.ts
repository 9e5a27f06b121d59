// Headers of a file the browser must save, never display: uploaded content (a PDF can carry
// JavaScript, an image can be a polyglot) is not rendered on the app's origin.

/** Characters RFC 5987 leaves unescaped in `filename*` (attr-char), besides letters and digits. */
const ATTR_CHAR = /[A-Za-z0-9!#$&+.^_`|~-]/;

/** `filename*=UTF-8''…` value: every byte outside attr-char percent-encoded. */
function rfc5987(value: string): string {
  let out = '';
  for (const ch of value) {
    if (ATTR_CHAR.test(ch)) out += ch;
    else
      for (const byte of new TextEncoder().encode(ch))
        out += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** The name reduced to safe ASCII for the plain `filename=` parameter (no quotes, no paths). */
function asciiName(value: string): string {
  const safe = value
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9._-]+/g, '_')
    .replace(/^[._]+/, '')
    .slice(0, 150);
  return safe || 'archivo';
}

/** `Content-Disposition: attachment` with an ASCII `filename` and the exact name in `filename*`. */
export function attachmentDisposition(fileName: string): string {
  return `attachment; filename="${asciiName(fileName)}"; filename*=UTF-8''${rfc5987(fileName)}`;
}

/** Headers for an uploaded file sent back as a download. */
export function downloadHeaders(file: {
  mime: string;
  size: number;
  fileName: string;
}): Record<string, string> {
  return {
    'Content-Type': file.mime,
    'Content-Length': String(file.size),
    'Content-Disposition': attachmentDisposition(file.fileName),
    // Opened anyway (a direct navigation, a viewer that ignores the disposition): no scripts,
    // no requests, an opaque origin.
    'Content-Security-Policy': "sandbox; default-src 'none'",
    'X-Content-Type-Options': 'nosniff',
    'Cache-Control': 'private, no-store',
  };
}
