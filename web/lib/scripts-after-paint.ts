// The page's modules are fetched at low priority (docs/decisions/0018).
//
// Every page is HTML with its content (prerendered, or rendered on the server with its data), so
// the browser can paint it from the HTML and the stylesheet alone. React Router writes a
// modulepreload for each of the ~20 modules that hydrate the page; at their default (high)
// priority they compete with the stylesheet on a phone's connection and the first paint waits
// for them. Marked `fetchpriority="low"`, the browser fetches them as soon as the stylesheet is
// on its way, and the page still hydrates as early as before: the module script that imports
// them is unchanged, at the end of the body.
//
// The rewrite is exact or nothing: a modulepreload not in the shape React Router writes today is
// left as it is (web/lib/scripts-after-paint.test.ts pins that shape, `npm run budget` checks the
// built pages).

const PRELOAD = /<link rel="modulepreload" href="([^"]+)"( nonce="[^"]*")?\/>/g;

/** The document with its modulepreloads at low priority. */
export function scriptsAfterPaint(html: string): string {
  return html.replace(
    PRELOAD,
    (_all, href: string, nonce: string | undefined) =>
      `<link rel="modulepreload" href="${href}"${nonce ?? ''} fetchpriority="low"/>`,
  );
}
