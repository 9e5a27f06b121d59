import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { KEPT_MODULE_ID, scriptsAfterPaint } from './scripts-after-paint';

// The shape React Router 7 writes (server-rendered pages carry a nonce, prerendered ones none).
const HEAD =
  '<head><link rel="stylesheet" href="/assets/app.css" data-precedence="default"/>' +
  '<link rel="modulepreload" href="/assets/manifest-1.js" nonce="abc=="/>' +
  '<link rel="modulepreload" href="/assets/entry.client-2.js" nonce="abc=="/>' +
  '<link rel="modulepreload" href="/assets/core-3.js" nonce="abc=="/></head>';
const MODULE_TEXT =
  'import "/assets/manifest-1.js";\nimport * as route0 from "/assets/root-4.js";\n  \n' +
  '  window.__reactRouterRouteModules = {"root":route0};\n\nimport("/assets/entry.client-2.js");';
const MODULE = `<script nonce="abc==" type="module" async="">${MODULE_TEXT}</script>`;
const PAGE = `<!DOCTYPE html><html lang="es">${HEAD}<body><h1>Hola</h1>${MODULE}</body></html>`;

/** Runs the page's starter script against a minimal DOM; returns what it added and when. */
function runStarter(html: string) {
  const starter = /<script nonce="abc==">(\(function[\s\S]*?)<\/script>/.exec(html)?.[1];
  if (!starter) throw new Error('no starter script');
  const added: {
    tag: string;
    rel?: string;
    href?: string;
    type?: string;
    text?: string;
    nonce?: string;
  }[] = [];
  const frames: (() => void)[] = [];
  const timers: { fn: () => void; ms: number }[] = [];
  const element = (tag: string) => ({ tag }) as Record<string, string>;
  const document = {
    currentScript: { nonce: 'abc==' },
    createElement: element,
    getElementById: (id: string) => (id === KEPT_MODULE_ID ? { textContent: MODULE_TEXT } : null),
    head: { appendChild: (e: never) => added.push(e) },
    body: { appendChild: (e: never) => added.push(e) },
  };
  runInNewContext(starter, {
    document,
    requestAnimationFrame: (fn: () => void) => frames.push(fn),
    setTimeout: (fn: () => void, ms: number) => timers.push({ fn, ms }),
  });
  return { added, frames, timers };
}

describe('scriptsAfterPaint', () => {
  it('takes every modulepreload out of the head and keeps the module script inert, byte for byte', () => {
    const html = scriptsAfterPaint(PAGE);
    expect(html).not.toMatch(/<link rel="modulepreload"/);
    expect(html).not.toMatch(/<script[^>]* type="module"/);
    expect(html).toContain(
      `<script type="text/x-after-paint" id="${KEPT_MODULE_ID}">${MODULE_TEXT}</script>`,
    );
    // The stylesheet and the content are untouched.
    expect(html).toContain(
      '<link rel="stylesheet" href="/assets/app.css" data-precedence="default"/>',
    );
    expect(html).toContain('<body><h1>Hola</h1>');
  });

  it('starts nothing before the first frame, then preloads the same modules and runs the module script with its nonce', () => {
    const { added, frames, timers } = runStarter(scriptsAfterPaint(PAGE));
    expect(added).toEqual([]);
    expect(frames).toHaveLength(1);
    frames[0]?.();
    const afterFrame = timers.find((t) => t.ms === 0);
    expect(afterFrame).toBeDefined();
    afterFrame?.fn();
    expect(added.filter((e) => e.rel === 'modulepreload').map((e) => e.href)).toEqual([
      '/assets/manifest-1.js',
      '/assets/entry.client-2.js',
      '/assets/core-3.js',
    ]);
    const script = added.find((e) => e.tag === 'script');
    expect(script).toMatchObject({ type: 'module', nonce: 'abc==', textContent: MODULE_TEXT });
    // The fallback timer (no frame in a background tab) does not start them a second time.
    timers.find((t) => t.ms === 300)?.fn();
    expect(added.filter((e) => e.tag === 'script')).toHaveLength(1);
  });

  it('starts the modules after 300 ms when no frame is painted (a tab opened in the background)', () => {
    const { added, timers } = runStarter(scriptsAfterPaint(PAGE));
    timers.find((t) => t.ms === 300)?.fn();
    expect(added.filter((e) => e.tag === 'script')).toHaveLength(1);
  });

  it('leaves a page in another shape exactly as it was', () => {
    const otherScript = PAGE.replace(' async=""', '');
    expect(scriptsAfterPaint(otherScript)).toBe(otherScript);
    const otherPreload = PAGE.replace(
      '<link rel="modulepreload" href="/assets/core-3.js" nonce="abc=="/>',
      '<link rel="modulepreload" href="/assets/core-3.js" crossorigin=""/>',
    );
    expect(scriptsAfterPaint(otherPreload)).toBe(otherPreload);
    const noModule = PAGE.replace(MODULE, '');
    expect(scriptsAfterPaint(noModule)).toBe(noModule);
  });
});
