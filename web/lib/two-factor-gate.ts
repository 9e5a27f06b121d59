import { isStaffRole } from '../../shared/roles';
import type { AuthUser } from './session-state';

/** Where staff without two-factor are kept until they turn it on (the server refuses the rest). */
export const TWO_FACTOR_SETUP_PATH = '/activar-dos-pasos';

/** Every staff role (admin, support, finance) must turn on two-step verification first. */
export function mustEnrolTwoFactor(user: AuthUser): boolean {
  return isStaffRole(user.role) && !user.twoFactorEnabled;
}
