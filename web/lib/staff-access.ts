// The back office by role, as the web shows it (the server checks every call again): staff only,
// and each page only for the roles whose area it belongs to (shared/roles.ts `staffCan`).
import { isStaffRole, staffCan, type StaffArea } from '../../shared/roles';

/** Where a role goes instead of a back-office page (null: it may stay). */
export function staffRedirect(role: string | null | undefined, area?: StaffArea): string | null {
  if (!isStaffRole(role)) return '/dashboard';
  if (area && !staffCan(role, area)) return '/admin';
  return null;
}

/** Where a member of staff starts: the order queue when they work it, otherwise the summary. */
export function staffHome(role: string | null | undefined): string {
  return staffCan(role, 'orders') ? '/admin/ordenes' : '/admin';
}
