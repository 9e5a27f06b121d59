// Who an account is (no zod here: public pages import it; the schemas are in
// shared/schemas/roles.ts). Customers buy; staff run the shop. Each API route names the staff roles it
// allows in its one definition (server/lib/route.ts); the web asks `staffCan` what to show.
export const STAFF_ROLES = ['admin', 'support', 'finance'] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];
export const ROLES = ['customer', ...STAFF_ROLES] as const;
export type Role = (typeof ROLES)[number];

export function isStaffRole(role: string | null | undefined): role is StaffRole {
  return (STAFF_ROLES as readonly string[]).includes(role ?? '');
}

/** How a role is named to people. */
export const ROLE_LABELS: Record<Role, string> = {
  customer: 'Cliente',
  admin: 'Administrador',
  support: 'Soporte',
  finance: 'Finanzas',
};

/**
 * What each staff role may use, by area of the back office. `admin` has everything; `support`
 * works the order queue and reads customers; `finance` handles money and reports.
 */
export const STAFF_AREAS = {
  /** The order queue: take, complete, reject, review, refills, saved replies. */
  orders: ['admin', 'support'],
  /** Customers' pages (support reads them; balances and payments stay hidden from support). */
  customers: ['admin', 'support', 'finance'],
  /** Balances, payments, top-up approvals, adjustments, credit limits, vouchers. */
  money: ['admin', 'finance'],
  /** Costs, margins and reports. */
  reports: ['admin', 'finance'],
  /** Catalogue, prices, price groups and special prices. */
  catalogue: ['admin'],
  /** Suppliers and their keys. */
  suppliers: ['admin'],
  /** Staff accounts and the audit log. */
  staff: ['admin'],
  /** The support desk: tickets, internal notes, saved replies (costs stay hidden from support). */
  tickets: ['admin', 'support'],
  /** Announcements to customers. */
  announcements: ['admin'],
} as const satisfies Record<string, readonly StaffRole[]>;
export type StaffArea = keyof typeof STAFF_AREAS;

export function staffCan(role: string | null | undefined, area: StaffArea): boolean {
  return (STAFF_AREAS[area] as readonly string[]).includes(role ?? '');
}
