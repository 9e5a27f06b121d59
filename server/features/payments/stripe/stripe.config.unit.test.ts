import { describe, expect, it } from 'vitest';
import { stripeConfigFrom } from './stripe.config';

const KEYS = { STRIPE_SECRET_KEY: 'sk_test_abc123', STRIPE_WEBHOOK_SECRET: 'whsec_abc123' };

describe('stripeConfigFrom', () => {
  it('is null (not configured) without the key and the secret, empty strings included', () => {
    expect(stripeConfigFrom({})).toBeNull();
    expect(stripeConfigFrom({ STRIPE_SECRET_KEY: '', STRIPE_WEBHOOK_SECRET: ' ' })).toBeNull();
    expect(stripeConfigFrom({ STRIPE_MIN_AMOUNT: '10.00' })).toBeNull();
  });

  it('uses Stripe itself and the default limits', () => {
    expect(stripeConfigFrom(KEYS)).toEqual({
      secretKey: 'sk_test_abc123',
      webhookSecret: 'whsec_abc123',
      api: null,
      minAmount: 500n,
      maxAmount: 100000n,
      webhookTolerance: 300,
    });
  });

  it('parses the API base and the limits', () => {
    const config = stripeConfigFrom({
      ...KEYS,
      STRIPE_API_BASE: 'http://127.0.0.1:12111',
      STRIPE_MIN_AMOUNT: '0.50',
      STRIPE_MAX_AMOUNT: '2500',
    });
    expect(config).toMatchObject({
      api: { host: '127.0.0.1', port: 12111, protocol: 'http' },
      minAmount: 50n,
      maxAmount: 250000n,
    });
    expect(stripeConfigFrom({ ...KEYS, STRIPE_API_BASE: 'https://stripe.internal/' })?.api).toEqual(
      { host: 'stripe.internal', port: 443, protocol: 'https' },
    );
  });

  it.each([
    [{ STRIPE_SECRET_KEY: 'sk_test_abc123' }, /STRIPE_WEBHOOK_SECRET: is required/],
    [{ STRIPE_WEBHOOK_SECRET: 'whsec_abc123' }, /STRIPE_SECRET_KEY: is required/],
    [{ ...KEYS, STRIPE_SECRET_KEY: 'pk_test_abc' }, /STRIPE_SECRET_KEY: must be a Stripe secret/],
    [
      { ...KEYS, STRIPE_WEBHOOK_SECRET: 'secret' },
      /STRIPE_WEBHOOK_SECRET: must be a webhook signing/,
    ],
    [{ ...KEYS, STRIPE_API_BASE: 'ftp://x' }, /STRIPE_API_BASE/],
    [{ ...KEYS, STRIPE_API_BASE: 'http://127.0.0.1:1/v1' }, /STRIPE_API_BASE: must be an origin/],
    [{ ...KEYS, STRIPE_MIN_AMOUNT: '0.10' }, /STRIPE_MIN_AMOUNT: must be an amount/],
    [{ ...KEYS, STRIPE_MAX_AMOUNT: 'lots' }, /STRIPE_MAX_AMOUNT: must be an amount/],
    [
      { ...KEYS, STRIPE_MIN_AMOUNT: '50', STRIPE_MAX_AMOUNT: '20' },
      /STRIPE_MAX_AMOUNT: must not be less than STRIPE_MIN_AMOUNT/,
    ],
  ])('throws a readable error for %j', (source, message) => {
    expect(() => stripeConfigFrom(source)).toThrow(message);
    expect(() => stripeConfigFrom(source)).toThrow(/^Invalid Stripe configuration:\n {2}/);
  });
});
