import { describe, expect, it } from 'vitest';
import { attachmentDisposition, downloadHeaders } from './download';

describe('attachmentDisposition', () => {
  it('keeps a plain ASCII name as is in both parameters', () => {
    expect(attachmentDisposition('comprobante-1.pdf')).toBe(
      `attachment; filename="comprobante-1.pdf"; filename*=UTF-8''comprobante-1.pdf`,
    );
  });

  it('never lets quotes, separators or non-ASCII reach the plain filename', () => {
    const value = attachmentDisposition('re"ci;bo\r\n/../año 1.pdf');
    const plain = /filename="([^"]*)"/.exec(value)?.[1];
    expect(plain).toMatch(/^[A-Za-z0-9._-]+$/);
    expect(plain).toBe('re_ci_bo_.._ano_1.pdf');
    expect(value).toContain(`filename*=UTF-8''re%22ci%3Bbo%0D%0A%2F..%2Fa%C3%B1o%201.pdf`);
    expect(value).not.toMatch(/[\r\n]/);
  });

  it('falls back to a generic name when nothing safe is left', () => {
    expect(attachmentDisposition('ñ')).toMatch(/^attachment; filename="n";/);
    expect(attachmentDisposition('日本')).toMatch(/^attachment; filename="archivo";/);
  });
});

describe('downloadHeaders', () => {
  it('asks for a download in a sandbox, never cached or sniffed', () => {
    expect(downloadHeaders({ mime: 'application/pdf', size: 12, fileName: 'a.pdf' })).toEqual({
      'Content-Type': 'application/pdf',
      'Content-Length': '12',
      'Content-Disposition': `attachment; filename="a.pdf"; filename*=UTF-8''a.pdf`,
      'Content-Security-Policy': "sandbox; default-src 'none'",
      'X-Content-Type-Options': 'nosniff',
      'Cache-Control': 'private, no-store',
    });
  });
});
