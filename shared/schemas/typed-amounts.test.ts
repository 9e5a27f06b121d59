import { describe, expect, it } from 'vitest';
import {
  CardCheckoutRequestSchema,
  CardCheckoutTypedSchema,
  ManualRequestSchema,
  ManualRequestTypedSchema,
} from './funds';
import { AmountInputSchema, AmountSchema, SignedAmountInputSchema } from './wallet';

describe('decimal comma: the top-up forms refused «25,50» (issue 20)', () => {
  it('the forms read what people type into the API’s dot-decimal string', () => {
    expect(CardCheckoutTypedSchema.parse({ amount: '25,50' })).toEqual({ amount: '25.50' });
    expect(CardCheckoutTypedSchema.parse({ amount: '1.234,50' })).toEqual({ amount: '1234.50' });
    expect(
      ManualRequestTypedSchema.parse({ methodId: 'm1', amount: '120,00', reference: 'TX-1' }),
    ).toEqual({ methodId: 'm1', amount: '120.00', reference: 'TX-1' });
    expect(AmountInputSchema.parse('4,90')).toBe('4.90');
    expect(SignedAmountInputSchema.parse('-2,5')).toBe('-2.50');
  });

  it('what they build is what the API takes', () => {
    const typed = CardCheckoutTypedSchema.parse({ amount: '1,234.50' });
    expect(CardCheckoutRequestSchema.parse(typed)).toEqual({ amount: '1234.50' });
    const manual = ManualRequestTypedSchema.parse({
      methodId: 'm',
      amount: '4,9',
      reference: 'abc',
    });
    expect(ManualRequestSchema.safeParse(manual).success).toBe(true);
  });

  it('the messages are Spanish and say what is wrong', () => {
    const message = (value: unknown) =>
      AmountInputSchema.safeParse(value).error?.issues[0]?.message;
    expect(message('')).toBe('Escribe un importe.');
    expect(message('0,00')).toBe('El importe debe ser mayor que cero.');
    expect(message('1.500')).toMatch(/^No queda claro si «1\.500» es 1500 o 1,5\./);
    expect(message('veinte')).toBe(
      'Escribe un importe válido, con hasta dos decimales (por ejemplo 25,50).',
    );
    expect(SignedAmountInputSchema.safeParse('0').error?.issues[0]?.message).toBe(
      'El importe no puede ser cero.',
    );
  });

  it('the API itself stays strict: amounts are dot-decimal strings', () => {
    for (const bad of ['25,50', '1.234,50', '1,234.50'])
      expect(AmountSchema.safeParse(bad).success, bad).toBe(false);
  });
});
