import { describe, expect, it } from 'vitest';
import { menuBadges, queueSearchUrl } from './desk-api';

describe('the admin header search', () => {
  it('goes to the queue with every state and the IMEI as stored', () => {
    expect(queueSearchUrl('35-970237-369904-8')).toBe(
      '/admin/ordenes?status=todas&q=359702373699048',
    );
    expect(queueSearchUrl('35 970237 369904 8')).toBe(
      '/admin/ordenes?status=todas&q=359702373699048',
    );
    expect(queueSearchUrl('#42')).toBe('/admin/ordenes?status=todas&q=42');
    expect(queueSearchUrl('   ')).toBeNull();
  });
});

describe('the admin menu badges', () => {
  it('counts orders to take or review, payments, failing suppliers and open tickets', () => {
    expect(
      menuBadges({
        pendingOrders: 3,
        reviewOrders: 1,
        pendingPayments: 2,
        failingSuppliers: 0,
        todayOrders: 5,
        todaySales: '12.50',
        since: '2026-11-24T00:00:00.000Z',
        openTickets: 6,
      }),
    ).toEqual({ ordenes: 4, pagos: 2, proveedores: 0, soporte: 6 });
    expect(menuBadges(null)).toEqual({});
  });
});
