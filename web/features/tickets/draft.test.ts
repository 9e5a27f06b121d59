import { describe, expect, it } from 'vitest';
import { orderDraft, paymentDraft } from './draft';

describe('the new ticket from an entry point', () => {
  it('from an order: category Orden, the order linked', () => {
    expect(orderDraft({ id: 'a1', number: 1234 })).toEqual({
      category: 'order',
      subject: 'Problema con la orden #1234',
      orderIds: ['a1'],
      message: '',
    });
  });

  it('from a top-up: category Pago, amount in US$, method and reference', () => {
    expect(
      paymentDraft({ methodName: 'Transferencia', amount: '25.00', reference: 'TRX-1' }),
    ).toEqual({
      category: 'payment',
      subject: 'Problema con mi recarga de US$25.00',
      orderIds: [],
      message: 'Recarga por Transferencia de US$25.00, referencia TRX-1.\n\n',
    });
    expect(paymentDraft({ methodName: 'Tarjeta', amount: '1250.5', reference: null }).message).toBe(
      'Recarga por Tarjeta de US$1,250.50.\n\n',
    );
  });
});
