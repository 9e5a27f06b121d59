import { describe, expect, it } from 'vitest';
import {
  classifyRefusal,
  cutBody,
  exchangeOf,
  LOGGED_BODY_BYTES,
  transportFailure,
} from './classify';

describe('classifyRefusal', () => {
  it('blames the supplier for account, credit, access and configuration problems', () => {
    for (const message of [
      'Authentication Failed',
      'Invalid User!',
      'Invalid API Key!',
      'Incorrect API key',
      'Wrong API access key',
      'Not enough credits',
      'Not enough funds on balance',
      'Insufficient Credits!',
      'Insufficient balance',
      'Low balance',
      'Site under maintenance',
      'Your Server IP is not allowed',
      'IP 1.2.3.4 not allowed',
      'Your IP is blocked',
      'Forbidden',
      'Access denied',
      'Rate limit exceeded',
      'Too many requests',
      'Service temporarily unavailable',
      'Account disabled',
      'User is suspended',
      'Invalid Action',
      'Command not found',
      'Server is under maintenance, please try again later',
    ]) {
      expect(classifyRefusal(message), message).toBe('refused-supplier');
    }
  });

  it('asks to retry later for a duplicate in flight or a transient wording', () => {
    expect(
      classifyRefusal(
        'You have active order with this link. Please wait until order being completed.',
      ),
    ).toBe('retry-later');
    expect(classifyRefusal('Try again later')).toBe('retry-later');
    expect(classifyRefusal('Please wait 5 minutes')).toBe('retry-later');
  });

  it('leaves everything else to the order', () => {
    for (const message of [
      'Invalid IMEI',
      'Invalid IMEI tool.',
      'No IMEI found.',
      'Duplicate IMEI[359702373699048]',
      'IMEI already exists!',
      'Incorrect service ID',
      'Invalid Service ID',
      'Incorrect link',
      'Bad link',
      'Quantity less than minimal 50',
      'Quantity more than maximum 10000',
      'Model not supported',
      'Invalid username',
      'This IMEI is blocked',
      'Incorrect request',
      '',
    ]) {
      expect(classifyRefusal(message), message).toBe('refused-order');
    }
  });
});

describe('transportFailure and exchangeOf', () => {
  it('tells "never sent" from "maybe received"', () => {
    expect(transportFailure({ kind: 'not-sent', error: 'ECONNREFUSED', ms: 1 })).toEqual({
      kind: 'not-sent',
      message: 'ECONNREFUSED',
    });
    expect(transportFailure({ kind: 'failed-after-send', error: 'reset', ms: 1 })?.kind).toBe(
      'ambiguous',
    );
    const response = { kind: 'response', contentType: null, body: '', ms: 1 } as const;
    expect(transportFailure({ ...response, status: 502 })?.kind).toBe('ambiguous');
    expect(transportFailure({ ...response, status: 200 })).toBeNull();
    expect(transportFailure({ ...response, status: 401 })).toBeNull();
  });

  it('cuts logged bodies to 64 KiB', () => {
    const big = 'ñ'.repeat(LOGGED_BODY_BYTES);
    expect(Buffer.byteLength(cutBody(big))).toBeLessThanOrEqual(LOGGED_BODY_BYTES + 3);
    expect(cutBody('short')).toBe('short');
    const exchange = exchangeOf(
      'balance',
      { key: '***' },
      { kind: 'response', status: 200, contentType: null, body: 'x'.repeat(100_000), ms: 3 },
    );
    expect(exchange.response?.length).toBe(LOGGED_BODY_BYTES);
    expect(exchange.error).toBeNull();
    expect(exchangeOf('add', {}, { kind: 'not-sent', error: 'no', ms: 0 })).toEqual({
      action: 'add',
      request: {},
      status: null,
      response: null,
      ms: 0,
      error: 'no',
    });
  });
});

describe('exchangeOf redaction', () => {
  it('blanks the key out of an answer that echoes it', () => {
    const exchange = exchangeOf(
      'balance',
      { key: '***' },
      { kind: 'response', status: 200, contentType: null, body: '{"key":"s3cr3t-key"}', ms: 1 },
      's3cr3t-key',
    );
    expect(exchange.response).toBe('{"key":"***"}');
  });
});
