import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { QrCode } from './qr-code';

const URI =
  'otpauth://totp/Cometa:ana%40example.com?secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP&issuer=Cometa&digits=6&period=30';

describe('QrCode', () => {
  it('draws the otpauth URI as an accessible SVG with a quiet zone', () => {
    const html = renderToStaticMarkup(
      createElement(QrCode, { value: URI, label: 'Código QR de prueba' }),
    );
    expect(html).toContain('role="img"');
    expect(html).toContain('aria-label="Código QR de prueba"');
    const size = Number(/viewBox="0 0 (\d+) \d+"/.exec(html)?.[1]);
    // A version ≥ 5 symbol (37+ modules) for a URI this long, plus 4 modules of border each side.
    expect(size).toBeGreaterThanOrEqual(37 + 8);
    const modules = (html.match(/h1v1h-1z/g) ?? []).length;
    // Roughly half the modules of the symbol are dark; none in the quiet zone.
    expect(modules).toBeGreaterThan(((size - 8) * (size - 8)) / 4);
    expect(html).not.toMatch(/M[0-3] /);
  });

  it('encodes different URIs differently', () => {
    const a = renderToStaticMarkup(createElement(QrCode, { value: URI, label: 'a' }));
    const b = renderToStaticMarkup(
      createElement(QrCode, { value: URI.replace('JBSW', 'KBSW'), label: 'a' }),
    );
    expect(a).not.toBe(b);
  });
});
