import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { chargedIn, decimalCents } from './mercadopago.service';
import {
  manifestDataId,
  parseSignatureHeader,
  signatureHeader,
  signatureManifest,
  verifySignature,
} from './mercadopago.signature';

const SECRET = 'your_secret_key_here';
const V1 = 'a'.repeat(64);

describe('x-signature parsing', () => {
  it('reads ts and v1 in any order, with spaces, ignoring other parts', () => {
    expect(parseSignatureHeader(`ts=1704908010,v1=${V1}`)).toEqual({ ts: '1704908010', v1: V1 });
    expect(parseSignatureHeader(` v1=${V1} , ts=1704908010 `)).toEqual({
      ts: '1704908010',
      v1: V1,
    });
    expect(parseSignatureHeader(`ts=1704908010,v2=xyz,v1=${V1.toUpperCase()}`)).toEqual({
      ts: '1704908010',
      v1: V1,
    });
  });

  it.each([
    [undefined],
    [''],
    ['garbage'],
    [`v1=${V1}`],
    ['ts=1704908010'],
    ['ts=,v1=' + V1],
    [`ts=abc,v1=${V1}`],
    ['ts=1704908010,v1=zz'],
    [`ts=1704908010,v1=${V1}0`],
  ])('refuses %j', (header) => {
    expect(parseSignatureHeader(header)).toBeNull();
  });
});

describe('the signed manifest', () => {
  it('is id, request-id and ts, as Mercado Pago documents it', () => {
    expect(signatureManifest({ dataId: '123456', requestId: 'bb56a2f1', ts: '1704908010' })).toBe(
      'id:123456;request-id:bb56a2f1;ts:1704908010;',
    );
  });

  it('leaves out the parts the notification does not carry', () => {
    expect(signatureManifest({ dataId: null, requestId: 'r-1', ts: '1' })).toBe(
      'request-id:r-1;ts:1;',
    );
    expect(signatureManifest({ dataId: '9', requestId: null, ts: '1' })).toBe('id:9;ts:1;');
    expect(signatureManifest({ dataId: null, requestId: null, ts: '1' })).toBe('ts:1;');
  });

  it('lower-cases an alphanumeric data id only', () => {
    expect(manifestDataId('ABC123')).toBe('abc123');
    expect(manifestDataId('123456')).toBe('123456');
    expect(manifestDataId('AB-12')).toBe('AB-12');
    expect(manifestDataId('')).toBeNull();
    expect(manifestDataId(undefined)).toBeNull();
  });

  it('verifies the HMAC-SHA256 of the manifest with the secret', () => {
    const manifest = 'id:123456;request-id:bb56a2f1;ts:1704908010;';
    const v1 = createHmac('sha256', SECRET).update(manifest).digest('hex');
    const header = `ts=1704908010,v1=${v1}`;
    expect(
      signatureHeader({
        secret: SECRET,
        dataId: '123456',
        requestId: 'bb56a2f1',
        ts: '1704908010',
      }),
    ).toBe(header);
    const ok = { secret: SECRET, header, dataId: '123456', requestId: 'bb56a2f1' };
    expect(verifySignature(ok)).toBe(true);
    expect(verifySignature({ ...ok, secret: 'other' })).toBe(false);
    expect(verifySignature({ ...ok, dataId: '123457' })).toBe(false);
    expect(verifySignature({ ...ok, requestId: null })).toBe(false);
    expect(verifySignature({ ...ok, header: `ts=1704908011,v1=${v1}` })).toBe(false);
    expect(verifySignature({ ...ok, header: undefined })).toBe(false);
  });
});

describe('amounts', () => {
  it('reads Mercado Pago numbers through their decimal text', () => {
    expect(decimalCents(10455.5)).toBe(1045550n);
    expect(decimalCents('10455.50')).toBe(1045550n);
    expect(decimalCents(0)).toBe(0n);
    expect(decimalCents(0.1 + 0.2)).toBeNull();
    expect(decimalCents(-1)).toBeNull();
    expect(decimalCents(1e21)).toBeNull();
    expect(decimalCents(null)).toBeNull();
  });

  it('charges rounded up to the cent, and to a whole unit in CLP and PYG', () => {
    expect(chargedIn('ARS', 1050n, 1_045_500_000n)).toBe(1097775n);
    expect(chargedIn('ARS', 1n, 1_500_000n)).toBe(2n);
    expect(chargedIn('CLP', 1050n, 1_045_500_000n)).toBe(1097800n);
    expect(chargedIn('PYG', 1000n, 7_000_000_000n)).toBe(7000000n);
  });
});
