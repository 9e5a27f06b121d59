import { describe, expect, it } from 'vitest';
import { inlineStylesheet } from './inline-stylesheet';

const LINK = '<link rel="stylesheet" href="/assets/app-1.css" data-precedence="default"/>';
const PAGE = `<!DOCTYPE html><html lang="es"><head>${LINK}<link rel="modulepreload" href="/assets/core-3.js"/></head><body><h1>Hola</h1></body></html>`;
const CSS = 'body{color:#0f172a}h1{font-size:2rem}';

describe('inlineStylesheet', () => {
  it('writes the stylesheet into the page and keeps a disabled link for React to find', () => {
    const asked: string[] = [];
    const html = inlineStylesheet(PAGE, (href) => {
      asked.push(href);
      return CSS;
    });
    expect(asked).toEqual(['/assets/app-1.css']);
    expect(html).toContain(
      `<style data-href="/assets/app-1.css">${CSS}</style>` +
        '<link rel="stylesheet" href="/assets/app-1.css" data-precedence="default" disabled=""/>',
    );
    // Only the link changed: the rest of the page is byte for byte what React wrote.
    expect(html.replace(/<style[^>]*>[^<]*<\/style>/, '').replace(' disabled=""', '')).toBe(PAGE);
  });

  it('leaves the page as it was when the file cannot be read', () => {
    expect(inlineStylesheet(PAGE, () => null)).toBe(PAGE);
  });

  it('never writes a stylesheet that could end the <style> element early', () => {
    expect(inlineStylesheet(PAGE, () => 'a{}</STYLE><script>alert(1)</script>')).toBe(PAGE);
  });

  it('leaves a link in another shape (another attribute order, a path outside /assets) alone', () => {
    const other = PAGE.replace(LINK, '<link href="/assets/app-1.css" rel="stylesheet"/>');
    expect(inlineStylesheet(other, () => CSS)).toBe(other);
    const outside = PAGE.replace('/assets/app-1.css', '/../secret.css');
    expect(inlineStylesheet(outside, () => CSS)).toBe(outside);
  });
});
