import { describe, expect, it } from 'vitest';
import { isStockOrder } from './stock-order';

describe('orders delivered from stock, in the queue', () => {
  it('are told by their masked result, without a supplier', () => {
    expect(isStockOrder({ dispatch: null, result: '••••1111' })).toBe(true);
    // An item shorter than 4 characters shows whole behind the mask.
    expect(isStockOrder({ dispatch: null, result: '••••AB' })).toBe(true);
    expect(isStockOrder({ dispatch: null, result: '••••😀😀😀😀' })).toBe(true);
    expect(isStockOrder({ dispatch: null, result: null })).toBe(false);
    expect(isStockOrder({ dispatch: null, result: 'Liberado. Código 12345678' })).toBe(false);
    expect(isStockOrder({ dispatch: null, result: '••••12345' })).toBe(false);
  });
});
