import { redirect } from 'react-router';
import { ApiError } from '../../lib/api';
import { refresh } from '../../lib/session';
import { postTwoFactor, twoFactorMessage } from './challenge';
import { cleanCode } from './key';
import type { AuthUser } from '../../lib/session-state';

// The /login/dos-pasos form, sent (loaded on demand, like the /login form's code).

export type ChallengeResult = {
  fields?: { code?: string };
  formError?: string;
  /** The sign-in this code belonged to is over: only «Volver a iniciar sesión» helps. */
  restart?: boolean;
};

/** Codes after which the challenge cannot go on: the 2FA cookie is gone or used up. */
const RESTART_CODES = new Set(['INVALID_TWO_FACTOR_COOKIE', 'TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE']);

/**
 * Checks the code (the app's, or a backup code) and, once through, goes where `landing` says
 * for the person now signed in.
 */
export async function verifyChallenge(
  request: Request,
  landing: (next: string | null, user: AuthUser | null) => string,
): Promise<ChallengeResult | Response> {
  const form = await request.formData();
  const typed = form.get('code');
  const backup = form.get('kind') === 'backup';
  const code = typeof typed !== 'string' ? '' : backup ? typed.trim() : cleanCode(typed);
  if (!code)
    return {
      fields: {
        code: backup
          ? 'Escribe uno de tus códigos de respaldo.'
          : 'Escribe el código de 6 dígitos de tu aplicación.',
      },
    };
  if (!backup && !/^\d{6}$/.test(code))
    return { fields: { code: 'El código de tu aplicación tiene 6 dígitos.' } };
  try {
    await postTwoFactor(
      backup ? '/api/auth/two-factor/verify-backup-code' : '/api/auth/two-factor/verify-totp',
      { code, trustDevice: form.get('trustDevice') === 'on' },
    );
  } catch (err) {
    const apiCode = err instanceof ApiError ? err.code : '';
    if (apiCode === 'INVALID_CODE' || apiCode === 'INVALID_BACKUP_CODE')
      return { fields: { code: twoFactorMessage(err) } };
    return { formError: twoFactorMessage(err), restart: RESTART_CODES.has(apiCode) };
  }
  const session = await refresh();
  return redirect(
    landing(
      new URL(request.url).searchParams.get('next'),
      session.status === 'authenticated' ? session.user : null,
    ),
  );
}
