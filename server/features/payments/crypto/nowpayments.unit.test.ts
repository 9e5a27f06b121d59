import { describe, expect, it } from 'vitest';
import {
  COIN_SCALE,
  formatScaled,
  ipnSignature,
  sortKeysRecursively,
  toScaled,
  verifiedIpnBody,
} from './nowpayments';

// An IPN as NOWPayments sends it (keys in its own order, a nested fee object, an array), and its
// signature computed independently (Python: json.dumps(sort_keys=True, separators=(',', ':'))
// then HMAC-SHA512 with the secret below).
const SECRET = 'cometa-ipn-secret';
const BODY =
  '{"payment_id":5077125051,"invoice_id":4522625843,"payment_status":"finished","price_amount":25.73,"price_currency":"usd","pay_amount":25.794325,"actually_paid":25.794325,"pay_currency":"usdttrc20","order_id":"0b6d3c4e-2f7a-4d2b-9a51-6f0c1e2d3b4a","outcome_amount":25.6,"fee":{"currency":"usdttrc20","depositFee":0,"withdrawalFee":0.1,"serviceFee":0.0625},"payin_extra_id":null,"list":[{"b":1,"a":2}]}';
const CANONICAL =
  '{"actually_paid":25.794325,"fee":{"currency":"usdttrc20","depositFee":0,"serviceFee":0.0625,"withdrawalFee":0.1},"invoice_id":4522625843,"list":[{"a":2,"b":1}],"order_id":"0b6d3c4e-2f7a-4d2b-9a51-6f0c1e2d3b4a","outcome_amount":25.6,"pay_amount":25.794325,"pay_currency":"usdttrc20","payin_extra_id":null,"payment_id":5077125051,"payment_status":"finished","price_amount":25.73,"price_currency":"usd"}';
const SIGNATURE =
  '3cdd459892821e9189a357b975c1c25c4b28e81a3601cecf86c6135ae6b749bee44529f16fece52be49c086fde9e0f7401d541033cc22f33b02e33a7beb8e241';

describe('NOWPayments IPN signature', () => {
  it('sorts keys at every level, inside arrays too, keeping array order', () => {
    expect(JSON.stringify(sortKeysRecursively(JSON.parse(BODY)))).toBe(CANONICAL);
    expect(sortKeysRecursively([3, { z: [{ y: 1, x: 2 }], a: null }, 'b'])).toEqual([
      3,
      { a: null, z: [{ x: 2, y: 1 }] },
      'b',
    ]);
    expect(Object.keys(sortKeysRecursively({ b: 1, a: { d: 1, c: 2 } }) as object)).toEqual([
      'a',
      'b',
    ]);
  });

  it('matches the documented algorithm (an independently computed vector)', () => {
    expect(ipnSignature(JSON.parse(BODY), SECRET)).toBe(SIGNATURE);
  });

  it('accepts the signature in either case and with surrounding spaces', () => {
    expect(verifiedIpnBody(BODY, SIGNATURE, SECRET)).toMatchObject({ payment_id: 5077125051 });
    expect(verifiedIpnBody(BODY, SIGNATURE.toUpperCase(), SECRET)).not.toBeNull();
    expect(verifiedIpnBody(BODY, ` ${SIGNATURE}\n`, SECRET)).not.toBeNull();
    // The same data with other whitespace or key order is the same signed content.
    const reordered = JSON.stringify(JSON.parse(CANONICAL), null, 2);
    expect(verifiedIpnBody(reordered, SIGNATURE, SECRET)).not.toBeNull();
  });

  it('refuses a missing, malformed or wrong signature, another secret, or a changed body', () => {
    expect(verifiedIpnBody(BODY, undefined, SECRET)).toBeNull();
    expect(verifiedIpnBody(BODY, '', SECRET)).toBeNull();
    expect(verifiedIpnBody(BODY, 'garbage', SECRET)).toBeNull();
    expect(verifiedIpnBody(BODY, SIGNATURE.slice(0, 126), SECRET)).toBeNull();
    expect(verifiedIpnBody(BODY, `${SIGNATURE}00`, SECRET)).toBeNull();
    expect(verifiedIpnBody(BODY, SIGNATURE.replace(/^3/, '4'), SECRET)).toBeNull();
    expect(verifiedIpnBody(BODY, SIGNATURE, 'another-secret')).toBeNull();
    const tampered = BODY.replace('"actually_paid":25.794325', '"actually_paid":257.94325');
    expect(verifiedIpnBody(tampered, SIGNATURE, SECRET)).toBeNull();
    const nested = BODY.replace('"serviceFee":0.0625', '"serviceFee":0.0626');
    expect(verifiedIpnBody(nested, SIGNATURE, SECRET)).toBeNull();
  });

  it('refuses bodies that are not a JSON object', () => {
    for (const body of ['not json', '[1,2]', 'null', '"text"', '42']) {
      expect(
        verifiedIpnBody(
          body,
          ipnSignature(body === 'not json' ? {} : JSON.parse(body), SECRET),
          SECRET,
        ),
      ).toBeNull();
    }
  });
});

describe('amounts from provider JSON, exact', () => {
  it.each([
    [25.73, 2, 2573n],
    [25, 2, 2500n],
    ['25.7', 2, 2570n],
    [0.1 + 0.2, 2, null], // 0.30000000000000004: not a cent amount
    [25.731, 2, null],
    ['25.730', 2, 2573n],
    [0, 2, 0n],
    [12.9, COIN_SCALE, 12_900_000_000_000_000_000n],
    [25.794325, COIN_SCALE, 25_794_325_000_000_000_000n],
    [1e-7, COIN_SCALE, 100_000_000_000n],
    [1.5e-18, COIN_SCALE, null],
    [1e21, 2, 10n ** 23n], // String(1e21) is "1e+21"
    ['2.5E-3', 6, 2500n],
    ['1e+2', 0, 100n],
    [0.000001, 6, 1n],
    [-1, 2, null],
    ['-1', 2, null],
    [Number.NaN, 2, null],
    [Number.POSITIVE_INFINITY, 2, null],
    ['', 2, null],
    ['1,5', 2, null],
    ['0x10', 2, null],
    [' 7.5 ', 2, 750n],
    [null, 2, null],
    [true, 2, null],
  ])('%j at %i decimals → %s', (value, scale, expected) => {
    expect(toScaled(value, scale)).toBe(expected);
  });

  it('prints scaled integers as their shortest decimal text', () => {
    expect(formatScaled(12_900_000_000_000_000_000n, COIN_SCALE)).toBe('12.9');
    expect(formatScaled(25_000_000_000_000_000_000n, COIN_SCALE)).toBe('25');
    expect(formatScaled(1n, COIN_SCALE)).toBe('0.000000000000000001');
    expect(formatScaled(0n, 6)).toBe('0');
    expect(formatScaled(2573n, 2)).toBe('25.73');
    for (const n of [12.9, 25.794325, 0.000123, 100, 12.900001])
      expect(formatScaled(toScaled(n, COIN_SCALE) ?? -1n, COIN_SCALE)).toBe(String(n));
    expect(formatScaled(toScaled(1e-7, COIN_SCALE) ?? -1n, COIN_SCALE)).toBe('0.0000001');
  });
});
