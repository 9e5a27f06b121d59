// The stylesheet travels inside the page (docs/decisions/0019).
//
// A page is HTML with its content, and the one thing its first paint waits for is the
// stylesheet: on a phone, a second round trip after the HTML. Written into the page as a
// <style>, the page paints as soon as its HTML has arrived, before any module has been fetched.
//
// React still needs to find its <link rel="stylesheet" data-precedence> in the head, or it would
// insert one and hold the hydrated page until it loads; the link stays, `disabled`, so the browser
// neither fetches nor applies it (the rules are already in the <style>). Client navigations keep
// using the same rules: the app has one stylesheet.
//
// Exact or nothing: a link in another shape, a file that cannot be read or a stylesheet that could
// close the <style> early leaves the page exactly as it was.

const STYLESHEET =
  /<link rel="stylesheet" href="(\/assets\/[A-Za-z0-9_.-]+\.css)" data-precedence="([A-Za-z0-9_-]+)"\/>/;

/** The CSS text of a built stylesheet (`/assets/….css`), or null when it cannot be read. */
export type ReadStylesheet = (href: string) => string | null;

/** The document with its stylesheet written into it (the first one only: the app has one). */
export function inlineStylesheet(html: string, read: ReadStylesheet): string {
  const match = STYLESHEET.exec(html);
  if (!match) return html;
  const [link, href = '', precedence = ''] = match;
  const css = read(href);
  if (css === null || /<\/style/i.test(css)) return html;
  const replacement =
    `<style data-href="${href}">${css}</style>` +
    `<link rel="stylesheet" href="${href}" data-precedence="${precedence}" disabled=""/>`;
  return html.slice(0, match.index) + replacement + html.slice(match.index + link.length);
}
