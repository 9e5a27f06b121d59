import type { ApiError } from '../../lib/api';
import { forgetPendingVerification } from '../../lib/pending-verification';
import { refresh } from '../../lib/session';
import { safeNextPath } from '../../lib/safe-next';

// What every way in does once the server has answered: the second step when the account has
// two-factor on, otherwise the session read and the page to go to.

/** Better Auth's answer when the account has two-factor on: no session yet, a code first. */
export function isTwoFactorRedirect(body: unknown): boolean {
  return (
    typeof body === 'object' &&
    body !== null &&
    (body as { twoFactorRedirect?: unknown }).twoFactorRedirect === true
  );
}

/** /login/dos-pasos, keeping where the person was going. */
export function twoFactorChallengeUrl(next: string | null): string {
  const path = next ? safeNextPath(next, '') : '';
  return path ? `/login/dos-pasos?next=${encodeURIComponent(path)}` : '/login/dos-pasos';
}

/** Where to go after a sign-in answer: /login/dos-pasos, /verify-email or `next`. */
export async function afterSignIn(body: unknown, next: string | null): Promise<string> {
  if (isTwoFactorRedirect(body)) return twoFactorChallengeUrl(next);
  // Signed in now: an address registered earlier in this tab no longer decides where to go.
  forgetPendingVerification();
  const session = await refresh();
  if (session.status === 'authenticated' && !session.user.emailVerified) return '/verify-email';
  return safeNextPath(next);
}

/** Sign-in refusals that read better than the API client's general message. */
const SIGN_IN_MESSAGES: Record<string, string> = {
  BANNED_USER: 'Esta cuenta está bloqueada. Escríbenos desde la página de contacto.',
  ACCOUNT_BLOCKED: 'Esta cuenta está bloqueada. Escríbenos desde la página de contacto.',
  INVALID_OTP: 'El código no es correcto.',
  OTP_EXPIRED: 'El código caducó. Pide uno nuevo.',
  OTP_NOT_FOUND: 'El código caducó o ya se usó. Pide uno nuevo.',
  TOO_MANY_ATTEMPTS: 'Demasiados intentos con este código. Pide uno nuevo.',
  INVALID_PHONE_NUMBER: 'Escribe el teléfono en formato internacional, por ejemplo +34600111222.',
  PHONE_NUMBER_NOT_EXIST:
    'Ese teléfono no está vinculado a ninguna cuenta. Entra de otra forma y añádelo desde Mi perfil → Seguridad.',
  PHONE_NUMBER_NOT_VERIFIED:
    'Ese teléfono no está verificado. Entra de otra forma y verifícalo desde Mi perfil → Seguridad.',
};

/** The message for a refused sign-in (any way in). */
export function signInMessage(err: ApiError): string {
  return SIGN_IN_MESSAGES[err.code] ?? err.message;
}
