// A form submitted or a button pressed before the page has hydrated is held, then sent or
// pressed again once it has (docs/decisions/0019).
//
// The page is painted from its HTML before its modules have run (web/lib/scripts-after-paint.ts),
// so a person on a slow phone can type and press «Entrar», or tap a service, while React is not
// listening yet. Without JavaScript that submit would leave for the server as a plain form (a GET
// form would put what was typed in the address), and that tap would do nothing. A tiny inline
// script in the head stops every submit and notes every press of a plain button until the app
// says it has hydrated; the last one is then done again through React's handlers (a submit with
// the same button; a press as a click). The fields still hold what was typed: the app's forms
// are read from the form, not from state. Links need nothing: they work without JavaScript.

/** The globals the inline script leaves for the app: stop holding, and do what was held. */
export const RELEASE_GLOBAL = '__cometaReleaseSubmit';
export const STOP_GLOBAL = '__cometaStopHolding';

/** The inline script's text (hashed into the CSP on prerendered pages, like every inline one). */
export const EARLY_SUBMIT_SCRIPT =
  '(function(){var held=null,d=document,on=true;' +
  'function hold(e){e.preventDefault();held={form:e.target,submitter:e.submitter}}' +
  'function press(e){var b=e.target&&e.target.closest&&e.target.closest("button");' +
  'if(b&&b.type!=="submit"&&!b.disabled)held={button:b}}' +
  'd.addEventListener("submit",hold,true);d.addEventListener("click",press,true);' +
  'function stop(){if(!on)return;on=false;d.removeEventListener("submit",hold,true);' +
  'd.removeEventListener("click",press,true)}' +
  `window.${STOP_GLOBAL}=stop;` +
  `window.${RELEASE_GLOBAL}=function(){stop();var h=held;held=null;if(!h)return;` +
  'if(h.button){if(h.button.isConnected)h.button.click();return}' +
  'if(!h.form||!h.form.isConnected)return;var b=h.submitter;' +
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

/** Called as React starts to listen (web/entry.client.tsx): from now on React handles input. */
export function stopHoldingEarlyInput(): void {
  const stop = (window as unknown as Record<string, unknown>)[STOP_GLOBAL];
  if (typeof stop === 'function') (stop as () => void)();
}

/**
 * Called once the page has hydrated: stop holding, and do again what was held — after the next
 * frame, so that the renders the hydration's own effects asked for have happened (the sign-in
 * form's action gains the page's `?next=` in one of them; the submit must see it).
 */
export function releaseEarlySubmit(): void {
  const release = (window as unknown as Record<string, unknown>)[RELEASE_GLOBAL];
  if (typeof release !== 'function') return;
  delete (window as unknown as Record<string, unknown>)[RELEASE_GLOBAL];
  requestAnimationFrame(() => setTimeout(release as () => void, 0));
}
