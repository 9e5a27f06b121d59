import { ERROR_MESSAGES } from '../../../shared/error-messages';
import { ApiError, readErrorAnswer } from '../../lib/api';

// Better Auth's two-factor endpoints (/api/auth/two-factor/*) as the sign-in challenge
// (/login/dos-pasos) and the enrolment call them, with their codes in Spanish. No zod here: the
// challenge page reads no answer.

/** What Better Auth's codes mean to the person. */
const MESSAGES: Record<string, string> = {
  INVALID_PASSWORD: 'La contraseña no es correcta.',
  INVALID_CODE: 'El código no es correcto.',
  INVALID_BACKUP_CODE: 'El código de respaldo no es correcto o ya se usó.',
  TOTP_ALREADY_ENABLED: 'La verificación en dos pasos ya está activada en tu cuenta.',
  TOTP_NOT_ENABLED: 'Primero configura tu aplicación de autenticación.',
  ACCOUNT_TEMPORARILY_LOCKED:
    'Demasiados intentos fallidos. Tu verificación está bloqueada unos minutos; te enviamos un correo.',
  TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE:
    'Demasiados intentos con este inicio de sesión. Vuelve a iniciar sesión para intentarlo de nuevo.',
  INVALID_TWO_FACTOR_COOKIE:
    'Tu inicio de sesión caducó antes de verificar el código. Vuelve a iniciar sesión.',
};

/** The Spanish message for a failed two-factor call (ours first, then the API client's). */
export function twoFactorMessage(err: unknown): string {
  if (err instanceof ApiError) return MESSAGES[err.code] ?? err.message;
  return 'No se pudo completar la operación. Inténtalo de nuevo.';
}

/**
 * POSTs to a two-factor endpoint. Not through `api()`: a wrong code answers 401, which the API
 * client takes for an ended session (and would send a signed-in person to /login).
 */
export async function postTwoFactor(path: string, body: unknown): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(path, {
      method: 'POST',
      headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
      credentials: 'same-origin',
      signal: AbortSignal.timeout(20_000),
    });
  } catch {
    throw new ApiError(
      0,
      'NETWORK',
      'No hay conexión con el servidor. Revisa tu conexión e inténtalo de nuevo.',
    );
  }
  const text = await response.text();
  let parsed: unknown = null;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    parsed = null;
  }
  if (!response.ok) {
    const answer = readErrorAnswer(parsed);
    const code = answer.code ?? `HTTP_${response.status}`;
    const fallback =
      response.status === 429
        ? ERROR_MESSAGES.RATE_LIMITED
        : 'No se pudo verificar el código. Inténtalo de nuevo.';
    throw new ApiError(response.status, code, MESSAGES[code] ?? fallback);
  }
  return parsed;
}
