// Links sent by e-mail as they come back from mail clients. Some add a character to the end of
// a link they detect in the text (a period or a bracket that followed it, a quote, a backslash),
// and that character lands in the link's last parameter: the token, or the page to go to
// afterwards. Before Better Auth reads such a link, the trailing characters no token and no page
// of ours ever ends with are removed, so the intact link and the one with a character appended
// do the same thing (docs/domain.md §1, Registration, verification, sign-in).

/** The e-mailed links whose query carries a token and the pages to go to afterwards. */
const EMAIL_LINK_PATHS = new Set(['/api/auth/verify-email', '/api/auth/magic-link/verify']);

const PAGE_PARAMS = ['callbackURL', 'errorCallbackURL', 'newUserCallbackURL'];

/** Tokens are base64url (JWTs also have inner dots): whatever else trails one was added. */
const TOKEN_TAIL = /[^A-Za-z0-9_-]+$/;

/** Punctuation and spaces that follow a link in a sentence; none of our paths ends with one. */
const PAGE_TAIL = /[\s.,;:!?)\]}>'"`*\\<|]+$/;

/** The URL of an e-mailed link without the characters a mail client appended to it. */
export function tidyEmailLink(href: string): string {
  const url = new URL(href);
  if (!EMAIL_LINK_PATHS.has(url.pathname)) return href;
  const params = url.searchParams;
  let changed = false;
  const tidy = (key: string, tail: RegExp) => {
    const value = params.get(key);
    if (value === null) return;
    const clean = value.replace(tail, '');
    if (clean !== value && clean !== '') {
      params.set(key, clean);
      changed = true;
    }
  };
  tidy('token', TOKEN_TAIL);
  for (const key of PAGE_PARAMS) tidy(key, PAGE_TAIL);
  return changed ? url.toString() : href;
}
