import { redirect } from 'react-router';
import type { StaffArea } from '../../shared/roles';
import { ready } from './session';
import type { AuthUser } from './session-state';
import { staffRedirect } from './staff-access';
import { mustEnrolTwoFactor, TWO_FACTOR_SETUP_PATH } from './two-factor-gate';

/**
 * A back-office page's client loader guard (the server loader's is `adminPage`): staff only, the
 * page's area only for the roles that may use it, two-factor first. Returns the signed-in user.
 */
export async function staffClientGuard(area?: StaffArea): Promise<AuthUser> {
  const session = await ready();
  if (session.status !== 'authenticated') throw redirect('/dashboard');
  const where = staffRedirect(session.user.role, area);
  if (where) throw redirect(where);
  if (mustEnrolTwoFactor(session.user)) throw redirect(TWO_FACTOR_SETUP_PATH);
  return session.user;
}
