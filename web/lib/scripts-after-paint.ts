// The page's modules are fetched after its first paint (docs/decisions/0019).
//
// Every page is HTML with its content and its stylesheet inside it (web/lib/inline-stylesheet.ts),
// so the browser can paint it from the HTML alone. React Router writes a modulepreload for each
// of the ~20 modules that hydrate the page, and a module script that imports the entry; the
// browser starts all of them while it is still reading the head, and on a phone the first paint
// shares the connection and the main thread with them.
//
// Rewritten here, the head has no modulepreload and React Router's module script is kept, byte for
// byte, as an inert `<script type="text/x-after-paint">`. A small inline script waits for the
// first frame to be painted, then adds the same modulepreloads and runs the kept text as the
// module script it was (its CSP nonce copied; on a prerendered page the kept text's hash is in the
// policy, since every inline script's is). A form submitted before the page has hydrated is held
// and sent again once it has (web/lib/early-submit.ts), so the later start loses nothing a person
// did.
//
// The rewrite is exact or nothing: a page whose modulepreloads or module script are not in the
// shape React Router writes today is left as it is (web/lib/scripts-after-paint.test.ts pins that
// shape; `npm run budget` fails if a built page still starts its modules from the head).

const PRELOAD =
  /<link rel="modulepreload" href="(\/assets\/[A-Za-z0-9_.-]+\.js)"( nonce="[^"]*")?\/>/g;
const MODULE_SCRIPT = /<script( nonce="[^"]*")? type="module" async="">([^<]*)<\/script>/;

/** The id of the kept module script. */
export const KEPT_MODULE_ID = 'modulos-tras-pintar';

/**
 * The inline script that starts the modules: after the first frame (a `requestAnimationFrame`,
 * then a task, so the frame has been painted), or after 300 ms if no frame comes (a page opened in
 * a background tab paints only once shown; its modules should be ready by then).
 */
export function startAfterPaint(preloads: readonly string[]): string {
  return (
    '(function(){var d=document,me=d.currentScript,started=false;function start(){' +
    'if(started)return;started=true;' +
    `${JSON.stringify(preloads)}.forEach(function(href){var l=d.createElement("link");` +
    'l.rel="modulepreload";l.href=href;d.head.appendChild(l)});' +
    `var s=d.createElement("script");s.type="module";if(me&&me.nonce)s.nonce=me.nonce;` +
    `s.textContent=d.getElementById("${KEPT_MODULE_ID}").textContent;d.body.appendChild(s)}` +
    'requestAnimationFrame(function(){setTimeout(start,0)});setTimeout(start,300)})()'
  );
}

/** The document with its modules started after the first paint. */
export function scriptsAfterPaint(html: string): string {
  const module = MODULE_SCRIPT.exec(html);
  if (!module) return html;
  const [script, nonce = '', text = ''] = module;
  if (!/^import "\/assets\/[A-Za-z0-9_.-]+\.js";\n/.test(text)) return html;
  const preloads = [...html.matchAll(PRELOAD)].map((m) => m[1] ?? '');
  if (preloads.length === 0) return html;
  const withoutPreloads = html.replace(PRELOAD, '');
  if (/<link rel="modulepreload"/.test(withoutPreloads)) return html;
  return withoutPreloads.replace(
    script,
    () =>
      `<script type="text/x-after-paint" id="${KEPT_MODULE_ID}">${text}</script>` +
      `<script${nonce}>${startAfterPaint(preloads)}</script>`,
  );
}
