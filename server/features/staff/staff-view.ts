// What each staff role may read of a back-office answer. Routes name who may call them
// (server/lib/route.ts `roles`); where a route serves several roles, its answer goes through one of
// these before it leaves the server, so a role never receives what it may not see
// (docs/domain.md, "Staff roles"): support sees no balances, spend, sales, payments, suppliers'
// state, nor what an order charged.
import { staffCan } from '../../../shared/roles';
import type { AdminOverview } from '../../../shared/schemas/admin-desk';
import type { CustomerDetail, CustomerList, StaffOrdersPage } from '../../../shared/schemas/admin';
import type { OrdersPage } from '../../../shared/schemas/orders';
import type { AdminOrderDto, AdminOrdersPage } from '../../../shared/schemas/suppliers';

/** Whether the role sees money: balances, spend, charges and sales. */
export function seesMoney(role: string): boolean {
  return staffCan(role, 'money');
}

export function customerListFor(role: string, list: CustomerList): CustomerList {
  if (seesMoney(role)) return list;
  return {
    ...list,
    items: list.items.map((c) => ({ ...c, balance: null, available: null, spend: null })),
  };
}

export function customerDetailFor(role: string, c: CustomerDetail): CustomerDetail {
  return seesMoney(role) ? c : { ...c, balance: null, held: null, creditLimit: null, spend: null };
}

export function customerOrdersFor(role: string, page: OrdersPage): StaffOrdersPage {
  if (seesMoney(role)) return page;
  return { ...page, items: page.items.map((o) => ({ ...o, price: null })) };
}

export function adminOrderFor(role: string, order: AdminOrderDto): AdminOrderDto {
  return seesMoney(role) ? order : { ...order, price: null };
}

export function adminOrdersFor(role: string, page: AdminOrdersPage): AdminOrdersPage {
  if (seesMoney(role)) return page;
  return { ...page, items: page.items.map((o) => ({ ...o, price: null })) };
}

export function overviewFor(role: string, o: AdminOverview): AdminOverview {
  return {
    ...o,
    pendingPayments: staffCan(role, 'money') ? o.pendingPayments : null,
    failingSuppliers: staffCan(role, 'suppliers') ? o.failingSuppliers : null,
    todaySales: staffCan(role, 'reports') ? o.todaySales : null,
    openTickets: staffCan(role, 'tickets') ? o.openTickets : null,
  };
}
