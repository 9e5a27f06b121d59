import { describe, expect, it } from 'vitest';
import { BulkPriceSchema, CreateServiceSchema, UpdateServiceSchema } from './catalogue';
import { CreateMethodSchema, ManualRequestSchema, UpdateMethodSchema } from './funds';
import { PlaceOrderSchema } from './orders';
import { AdjustmentSchema, AmountSchema } from './wallet';

// Numbers in request bodies are JSON numbers, amounts strict decimal strings: nothing is
// coerced, so a hex string, an exponent, a boolean or a one-element array never becomes a number.
const NOT_NUMBERS: unknown[] = ['5', '0x10', '1e3', ' 7 ', '', true, false, ['5'], [5], null, {}];
const NOT_AMOUNTS: unknown[] = [5, 10.5, '1e3', '0x10', '10.001', '1,50', '.5', true, ['10'], {}];

function messageAt(
  result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } },
  key: string,
) {
  return result.error?.issues.find((i) => i.path[0] === key)?.message;
}

describe('request numbers are never coerced', () => {
  it('AmountSchema takes only a decimal string with up to two places', () => {
    expect(AmountSchema.parse(' 25.50 ')).toBe('25.50');
    for (const bad of NOT_AMOUNTS) {
      expect(AmountSchema.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    }
    for (const bad of [5, '1e3', '0x10', true]) {
      expect(AdjustmentSchema.safeParse({ amount: bad, reason: 'Corrección' }).success).toBe(false);
    }
  });

  it('a method sortOrder is a JSON integer, refused in Spanish otherwise', () => {
    const method = {
      name: 'Transferencia',
      instructions: 'Cuenta 123',
      minAmount: '5',
      maxAmount: '100',
    };
    expect(CreateMethodSchema.parse({ ...method, sortOrder: 3 }).sortOrder).toBe(3);
    for (const sortOrder of NOT_NUMBERS) {
      const result = CreateMethodSchema.safeParse({ ...method, sortOrder });
      expect(result.success, JSON.stringify(sortOrder)).toBe(false);
      expect(messageAt(result, 'sortOrder')).toBe('El orden debe ser un número entero.');
      expect(UpdateMethodSchema.safeParse({ sortOrder }).success).toBe(false);
    }
    for (const bad of NOT_AMOUNTS) {
      expect(CreateMethodSchema.safeParse({ ...method, minAmount: bad }).success).toBe(false);
    }
  });

  it('a manual top-up amount is a decimal string and its reference has no control characters', () => {
    const request = { methodId: 'm1', amount: '25', reference: 'TX-123' };
    expect(ManualRequestSchema.safeParse(request).success).toBe(true);
    for (const amount of NOT_AMOUNTS) {
      expect(ManualRequestSchema.safeParse({ ...request, amount }).success).toBe(false);
    }
    const control = ManualRequestSchema.safeParse({ ...request, reference: 'TX\u0000123' });
    expect(messageAt(control, 'reference')).toBe('La referencia contiene caracteres no válidos.');
  });

  it('an order quantity is a JSON integer', () => {
    expect(PlaceOrderSchema.parse({ serviceId: 's', quantity: 1000 }).quantity).toBe(1000);
    for (const quantity of NOT_NUMBERS.filter((v) => v !== null)) {
      const result = PlaceOrderSchema.safeParse({ serviceId: 's', quantity });
      expect(result.success, JSON.stringify(quantity)).toBe(false);
      expect(messageAt(result, 'quantity')).toBe('La cantidad debe ser un número entero.');
    }
  });

  it('service quantities, sort order and the bulk percentage are JSON numbers', () => {
    const service = {
      category: 'IMEI',
      name: 'Consulta',
      description: 'Una consulta',
      deliveryTime: '1 hora',
      price: '1.50',
      fields: [],
    };
    expect(CreateServiceSchema.safeParse(service).success).toBe(true);
    for (const bad of NOT_NUMBERS.filter((v) => v !== null)) {
      expect(CreateServiceSchema.safeParse({ ...service, minQuantity: bad }).success).toBe(false);
      expect(UpdateServiceSchema.safeParse({ sortOrder: bad }).success).toBe(false);
      expect(BulkPriceSchema.safeParse({ percent: bad }).success, JSON.stringify(bad)).toBe(false);
    }
    for (const price of NOT_AMOUNTS) {
      expect(CreateServiceSchema.safeParse({ ...service, price }).success).toBe(false);
    }
  });
});
