import type { AuthUser } from './session-state';

/** Where an admin without two-factor is kept until they turn it on (the server refuses the rest). */
export const TWO_FACTOR_SETUP_PATH = '/activar-dos-pasos';

/** An admin must turn on the verification in two steps before anything else. */
export function mustEnrolTwoFactor(user: AuthUser): boolean {
  return user.role === 'admin' && !user.twoFactorEnabled;
}
