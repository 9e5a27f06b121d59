import { describe, expect, it } from 'vitest';
import type { PaymentMethodDto } from '../../shared/schemas/payments';
import { feeText, formatCurrencyEs, formatRateEs, limitsText, quotePreview } from './topup-quote';

const paypal: PaymentMethodDto = {
  id: 'paypal',
  method: 'paypal',
  name: 'PayPal',
  fee: { percent: '2.90', fixed: '0.30' },
  minAmount: '5.00',
  maxAmount: '1000.00',
  currency: 'USD',
  rate: null,
  instructions: null,
};

const mercadopago: PaymentMethodDto = {
  ...paypal,
  id: 'mercadopago',
  method: 'mercadopago',
  name: 'Mercado Pago',
  fee: { percent: '0.00', fixed: '0.00' },
  currency: 'ARS',
  rate: '1045.5',
};

describe('feeText', () => {
  it('writes the percentage with a decimal comma and the fixed part in US$', () => {
    expect(feeText({ percent: '2.90', fixed: '0.30' })).toBe('Comisión: 2,90 % + US$0.30');
  });
  it('leaves out a zero part', () => {
    expect(feeText({ percent: '3.00', fixed: '0.00' })).toBe('Comisión: 3 %');
    expect(feeText({ percent: '0.00', fixed: '1.00' })).toBe('Comisión: US$1.00');
  });
  it('says there is no fee', () => {
    expect(feeText({ percent: '0.00', fixed: '0.00' })).toBe('Sin comisión');
  });
});

describe('limitsText', () => {
  it('names both limits in US$', () => {
    expect(limitsText(paypal)).toBe('Entre US$5.00 y US$1,000.00.');
  });
});

describe('formatCurrencyEs / formatRateEs', () => {
  it('groups thousands with a dot and uses a decimal comma', () => {
    expect(formatCurrencyEs(2716300n, 'ARS')).toBe('27.163,00 ARS');
    expect(formatCurrencyEs(5n, 'MXN')).toBe('0,05 MXN');
    expect(formatCurrencyEs(123456789n, 'ARS')).toBe('1.234.567,89 ARS');
  });
  it('writes a rate with at least two decimals', () => {
    expect(formatRateEs('1045.5')).toBe('1045,50');
    expect(formatRateEs('17')).toBe('17,00');
    expect(formatRateEs('17.123400')).toBe('17,1234');
  });
});

describe('quotePreview', () => {
  it('adds the fee on top: what they pay and what they get', () => {
    expect(quotePreview(paypal, '25')).toEqual({
      kind: 'quote',
      text: 'Pagas US$26.03 · Recibes US$25.00',
      charged: null,
    });
  });
  it('reads the amount as typed, with a decimal comma', () => {
    // 2.90 % of 10.50 is 0.3045, rounded up to 0.31, plus 0.30.
    expect(quotePreview(paypal, '10,50')).toMatchObject({
      text: 'Pagas US$11.11 · Recibes US$10.50',
    });
  });
  it('converts what is paid into the method’s currency at its rate (rounded up)', () => {
    expect(quotePreview(mercadopago, '25.98')).toEqual({
      kind: 'quote',
      text: 'Pagas US$25.98 · Recibes US$25.98',
      // 25.98 × 1045.5 = 27162.09
      charged: 'Pagas 27.162,09 ARS (1 US$ = 1045,50 ARS)',
    });
    expect(quotePreview(mercadopago, '0,01')).toMatchObject({ kind: 'out-of-range' });
    // Chilean pesos have no cents: up to the next whole peso.
    expect(quotePreview({ ...mercadopago, currency: 'CLP', rate: '950.5' }, '10,01')).toMatchObject(
      {
        charged: 'Pagas 9.515,00 CLP (1 US$ = 950,50 CLP)',
      },
    );
  });
  it('shows nothing until an amount reads', () => {
    expect(quotePreview(paypal, '')).toEqual({ kind: 'empty' });
    expect(quotePreview(paypal, 'abc')).toEqual({ kind: 'empty' });
    expect(quotePreview(paypal, '0')).toEqual({ kind: 'empty' });
    expect(quotePreview(paypal, '1.500')).toEqual({ kind: 'empty' });
  });
  it('reminds the limits outside them', () => {
    expect(quotePreview(paypal, '1')).toEqual({
      kind: 'out-of-range',
      text: 'El importe debe estar entre US$5.00 y US$1,000.00.',
    });
    expect(quotePreview(paypal, '1000.01')).toMatchObject({ kind: 'out-of-range' });
  });
});
