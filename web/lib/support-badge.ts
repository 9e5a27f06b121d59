import type { Me } from '../../shared/schemas/me';
import { isStaffRole } from '../../shared/roles';

/**
 * The customer's tickets with answers not read yet, for the header's «Soporte» (0 for staff: their
 * count is the admin menu's, from the overview).
 */
export function customerUnreadTickets(me: Me | null | undefined): number {
  if (!me || isStaffRole(me.role)) return 0;
  return me.unreadTickets !== null && me.unreadTickets > 0 ? me.unreadTickets : 0;
}

/** «Soporte, 2 sin leer»: the link's accessible name with its count. */
export function supportLabel(unread: number): string {
  return unread > 0 ? `Soporte, ${unread} sin leer` : 'Soporte';
}
