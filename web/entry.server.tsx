import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { renderToPipeableStream } from 'react-dom/server';
import { ServerRouter, type EntryContext } from 'react-router';
import { currentNonce } from './lib/nonce';
import { withEarlySubmitGuard } from './lib/early-submit';
import { inlineStylesheet } from './lib/inline-stylesheet';
import { scriptsAfterPaint } from './lib/scripts-after-paint';

// React Router's Node entry, with the page's CSP nonce on every script it writes, and the whole
// page rendered before it is sent (loaders have finished by then: nothing streams in later), its
// stylesheet inside it (web/lib/inline-stylesheet.ts), its modules started after the first paint
// (web/lib/scripts-after-paint.ts) and forms submitted before hydration held until then
// (web/lib/early-submit.ts).

// Built, this file is build/server/index.js and the stylesheets are in build/client/assets (the
// same place at build time, when the public pages are prerendered through this entry). Under the
// dev server there is no such file and pages keep their <link>.
// The bundler may put this code in a chunk under build/server/assets: look one level up too.
const HERE = path.dirname(fileURLToPath(import.meta.url));
const CLIENT_ROOT =
  [path.resolve(HERE, '../client'), path.resolve(HERE, '../../client')].find((dir) =>
    existsSync(path.join(dir, 'assets')),
  ) ?? path.resolve(HERE, '../client');
const stylesheets = new Map<string, string | null>();

function readStylesheet(href: string): string | null {
  if (!stylesheets.has(href)) {
    let css: string | null = null;
    try {
      css = readFileSync(path.join(CLIENT_ROOT, href), 'utf8');
    } catch {
      css = null;
    }
    stylesheets.set(href, css);
  }
  return stylesheets.get(href) ?? null;
}

export const streamTimeout = 5_000;

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
) {
  if (request.method.toUpperCase() === 'HEAD')
    return new Response(null, { status: responseStatusCode, headers: responseHeaders });
  const nonce = currentNonce();
  return new Promise<Response>((resolve, reject) => {
    let status = responseStatusCode;
    let timeout: ReturnType<typeof setTimeout> | undefined = setTimeout(
      () => abort(),
      streamTimeout + 1_000,
    );
    const { pipe, abort } = renderToPipeableStream(
      <ServerRouter context={routerContext} url={request.url} nonce={nonce} />,
      {
        nonce,
        onAllReady() {
          const chunks: Buffer[] = [];
          const body = new Writable({
            write(chunk: Buffer | string, _encoding, callback) {
              chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
              callback();
            },
            final(callback) {
              clearTimeout(timeout);
              timeout = undefined;
              responseHeaders.set('Content-Type', 'text/html; charset=utf-8');
              const rendered = Buffer.concat(chunks).toString('utf8');
              const html = withEarlySubmitGuard(
                inlineStylesheet(scriptsAfterPaint(rendered), readStylesheet),
                nonce,
              );
              resolve(new Response(html, { headers: responseHeaders, status }));
              callback();
            },
          });
          pipe(body);
        },
        onShellError(error: unknown) {
          clearTimeout(timeout);
          reject(error instanceof Error ? error : new Error(String(error)));
        },
        onError(error: unknown) {
          status = 500;
          console.error(error);
        },
      },
    );
  });
}
