import { describe, expect, it } from 'vitest';
import { CreateBatchSchema, RedeemSchema } from './vouchers';

const valid = { amount: '10.00', count: 5 };

/** The first Spanish message zod gives for `count`, or null when the body is accepted. */
function countError(count: unknown): string | null {
  const parsed = CreateBatchSchema.safeParse({ ...valid, count });
  if (parsed.success) return null;
  return parsed.error.issues.find((i) => i.path[0] === 'count')?.message ?? 'otro campo';
}

describe('CreateBatchSchema', () => {
  it('accepts a JSON integer count', () => {
    expect(CreateBatchSchema.parse(valid)).toMatchObject({ amount: '10.00', count: 5 });
    expect(CreateBatchSchema.parse({ ...valid, count: 1000 }).count).toBe(1000);
  });

  it('regression: voucher count accepted "0x10", "1e3", true and ["5"] through z.coerce', () => {
    for (const bad of ['0x10', '1e3', '5', ' 5 ', '', true, false, ['5'], [5], null, {}]) {
      const message = countError(bad);
      expect(message, JSON.stringify(bad)).toBe(
        'Escribe cuántos códigos quieres crear, como número entero.',
      );
    }
  });

  it('refuses counts out of range or with decimals, in Spanish', () => {
    expect(countError(0)).toBe('Crea al menos 1 código.');
    expect(countError(1001)).toBe('No puedes crear más de 1000 códigos a la vez.');
    expect(countError(2.5)).toBe('La cantidad de códigos debe ser un número entero.');
    expect(countError(Number.POSITIVE_INFINITY)).not.toBeNull();
    expect(countError(Number.NaN)).not.toBeNull();
  });

  it('takes the amount only as a strict decimal string', () => {
    for (const amount of [10, '1e3', '0x10', '10.001', true, ['10']]) {
      expect(CreateBatchSchema.safeParse({ ...valid, amount }).success, String(amount)).toBe(false);
    }
  });

  it('treats blank expiry and note as not given, and refuses a past expiry', () => {
    expect(CreateBatchSchema.parse({ ...valid, expiresAt: '', note: '  ' })).toEqual({
      amount: '10.00',
      count: 5,
    });
    expect(CreateBatchSchema.safeParse({ ...valid, expiresAt: '2000-01-01' }).success).toBe(false);
    expect(CreateBatchSchema.safeParse({ ...valid, expiresAt: '2026-02-31' }).success).toBe(false);
  });
});

describe('RedeemSchema', () => {
  it('refuses a code that is not text', () => {
    for (const code of [123, true, ['CMT-AAAA-BBBB-CCCC'], null]) {
      expect(RedeemSchema.safeParse({ code }).success, JSON.stringify(code)).toBe(false);
    }
  });
});
