// The local mailbox page (/_dev/correo, DEV_MAILBOX) shows every sign-in link and code. `npm
// start` and `npm run dev` turn it on only for an app that lives on this machine over http,
// and never over a choice the user made.

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** True for an unset APP_URL (http://localhost:$PORT) or an http URL on this machine. */
export function isLocalHttpUrl(appUrl) {
  if (appUrl === undefined || appUrl === '') return true;
  try {
    const url = new URL(appUrl);
    return url.protocol === 'http:' && LOCAL_HOSTS.has(url.hostname);
  } catch {
    return false;
  }
}

/** The environment for the server: DEV_MAILBOX=true added when unset and APP_URL is local. */
export function withDevMailboxDefault(env) {
  if (env.DEV_MAILBOX !== undefined && env.DEV_MAILBOX !== '') return env;
  return isLocalHttpUrl(env.APP_URL) ? { ...env, DEV_MAILBOX: 'true' } : env;
}
