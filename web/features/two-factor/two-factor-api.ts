import { z } from 'zod';
import { ERROR_MESSAGES } from '../../../shared/error-messages';
import { SecurityOverviewSchema } from '../../../shared/schemas/security';
import { ApiError, api, readErrorAnswer } from '../../lib/api';

// The calls of the two-factor enrolment and challenge: Better Auth's endpoints under
// /api/auth/two-factor (docs/decisions/0014-sign-in-methods.md), with their codes in Spanish.

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

export function readSecurity() {
  return api.get('/api/me/security', SecurityOverviewSchema);
}

const EnableAnswerSchema = z.looseObject({
  totpURI: z.string().startsWith('otpauth://'),
  backupCodes: z.array(z.string()).min(1),
});
export type Enrolment = z.infer<typeof EnableAnswerSchema>;

/** Starts the enrolment: a new secret and backup codes (not active until a code confirms them). */
export function enableTwoFactor(password: string | undefined): Promise<Enrolment> {
  return api.post('/api/auth/two-factor/enable', EnableAnswerSchema, password ? { password } : {});
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

/** Confirms the enrolment with the app's current code: two-factor is on from now. */
export async function confirmTwoFactor(code: string): Promise<void> {
  await postTwoFactor('/api/auth/two-factor/verify-totp', { code });
}
