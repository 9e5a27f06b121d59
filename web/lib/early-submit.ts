// A form submitted before the page has hydrated is held, then sent again once it has
// (docs/decisions/0019).
//
// The page is painted from its HTML before its modules have run (web/lib/scripts-after-paint.ts),
// so a person on a slow phone can type and press «Entrar» while React is not listening yet.
// Without JavaScript that submit would leave for the server as a plain form (a GET form would
// put what was typed in the address). A tiny inline script in the head stops every submit until
// the app says it has hydrated; the last one held is then submitted again through React's handlers,
// with the same button, and the fields still hold what was typed (the app's forms are read from
// the form, not from state).

/** The global the inline script leaves for the app to call after hydrating. */
export const RELEASE_GLOBAL = '__cometaReleaseSubmit';

/** The inline script's text (hashed into the CSP on prerendered pages, like every inline one). */
export const EARLY_SUBMIT_SCRIPT =
  '(function(){var held=null,d=document;function hold(e){e.preventDefault();' +
  'held={form:e.target,submitter:e.submitter}}d.addEventListener("submit",hold,true);' +
  `window.${RELEASE_GLOBAL}=function(){d.removeEventListener("submit",hold,true);` +
  'var h=held;held=null;if(!h||!h.form||!h.form.isConnected)return;var b=h.submitter;' +
  'try{h.form.requestSubmit(b&&b.isConnected&&b.form===h.form?b:undefined)}' +
  'catch(_){h.form.requestSubmit()}}})()';

/** The document with the guard as the first thing in its head (before any form is parsed). */
export function withEarlySubmitGuard(html: string, nonce: string | undefined): string {
  const at = html.indexOf('<head>');
  if (at === -1) return html;
  const end = at + '<head>'.length;
  const attribute = nonce ? ` nonce="${nonce}"` : '';
  return `${html.slice(0, end)}<script${attribute}>${EARLY_SUBMIT_SCRIPT}</script>${html.slice(end)}`;
}

/** Called once the page has hydrated: stop holding, and send what was held. */
export function releaseEarlySubmit(): void {
  const release = (window as unknown as Record<string, unknown>)[RELEASE_GLOBAL];
  if (typeof release !== 'function') return;
  delete (window as unknown as Record<string, unknown>)[RELEASE_GLOBAL];
  (release as () => void)();
}
