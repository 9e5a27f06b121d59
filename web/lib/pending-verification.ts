// Registering does not sign in (docs/decisions/0010-sign-up-enumeration.md): the answer is the
// same whether the address was new or already had an account, so the browser gets no session
// until the verification link is opened. This tab remembers the address it registered so that
// /verify-email can say where the link went and send it again, and the protected pages send the
// person there rather than to /login. sessionStorage: one tab, gone when it closes.

const KEY = 'cometa.pendingVerification';

function storage(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.sessionStorage;
  } catch {
    // Storage can be disabled (privacy settings); the pages then fall back to /login.
    return null;
  }
}

/** Remembers the address this tab just registered. */
export function rememberPendingVerification(email: string): void {
  try {
    storage()?.setItem(KEY, email);
  } catch {
    // Quota or privacy mode: nothing to remember.
  }
}

/** The address this tab registered and has not yet seen verified, or null. */
export function pendingVerificationEmail(): string | null {
  try {
    return storage()?.getItem(KEY) || null;
  } catch {
    return null;
  }
}

/** Forgets it: the person signed in, verified, or chose another account. */
export function forgetPendingVerification(): void {
  try {
    storage()?.removeItem(KEY);
  } catch {
    // Nothing stored.
  }
}
