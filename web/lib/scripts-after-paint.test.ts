import { describe, expect, it } from 'vitest';
import { scriptsAfterPaint } from './scripts-after-paint';

// The shape React Router 7 writes (server-rendered pages carry a nonce, prerendered ones none).
const HEAD =
  '<head><link rel="stylesheet" href="/assets/app.css" data-precedence="default"/>' +
  '<link rel="modulepreload" href="/assets/manifest-1.js" nonce="abc=="/>' +
  '<link rel="modulepreload" href="/assets/core-3.js"/></head>';
const MODULE =
  '<script nonce="abc==" type="module" async="">import "/assets/manifest-1.js";\n' +
  'import("/assets/entry.client-2.js");</script>';
const PAGE = `<!DOCTYPE html><html lang="es">${HEAD}<body><h1>Hola</h1>${MODULE}</body></html>`;

describe('scriptsAfterPaint', () => {
  it('asks for every modulepreload at low priority, with its nonce', () => {
    const html = scriptsAfterPaint(PAGE);
    expect(html).toContain(
      '<link rel="modulepreload" href="/assets/manifest-1.js" nonce="abc==" fetchpriority="low"/>',
    );
    expect(html).toContain(
      '<link rel="modulepreload" href="/assets/core-3.js" fetchpriority="low"/>',
    );
    expect(html.match(/rel="modulepreload"/g)).toHaveLength(2);
    expect(html.match(/fetchpriority="low"/g)).toHaveLength(2);
  });

  it('leaves the stylesheet, the content and the module script exactly as they were', () => {
    const html = scriptsAfterPaint(PAGE);
    expect(html.replaceAll(' fetchpriority="low"', '')).toBe(PAGE);
    expect(html).toContain(MODULE);
  });
});
