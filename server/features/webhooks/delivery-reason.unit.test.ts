import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { textProblem } from '../../../shared/text';
import { postJson, type PostOptions } from '../../suppliers/http';
import { deliveryReason, reasonOf, REASONS } from './delivery-reason';
import { isPlainlyPrivateHost } from './webhooks.service';

const OPTIONS: PostOptions = {
  connectTimeoutMs: 1000,
  totalTimeoutMs: 1000,
  maxBytes: 1024,
  allowPrivateNetwork: false,
};

describe('deliveryReason', () => {
  it('is null for 2xx and names the status otherwise, without the body', () => {
    expect(deliveryReason(200, null)).toBeNull();
    expect(deliveryReason(204, 'ignored')).toBeNull();
    expect(deliveryReason(500, null)).toBe('El servidor respondió HTTP 500');
    expect(deliveryReason(301, null)).toBe('El servidor respondió HTTP 301');
    expect(
      reasonOf({ kind: 'response', status: 503, contentType: null, body: 'secreto', ms: 1 }),
    ).toBe('El servidor respondió HTTP 503');
  });

  it('turns every transport error into a short fixed phrase (older rows too)', () => {
    const cases: [string, string][] = [
      [
        'address of 10.0.0.5 is not public (private networks are not allowed for this call)',
        REASONS.privateAddress,
      ],
      ['no connection within 10000 ms', REASONS.timeout],
      ['no complete answer within 10000 ms', REASONS.timeout],
      ['connect ETIMEDOUT 203.0.113.9:443', REASONS.timeout],
      ['getaddrinfo ENOTFOUND hooks.example.invalid', REASONS.dns],
      ['connect ECONNREFUSED 10.0.0.5:5432', REASONS.refused],
      ['connect EHOSTUNREACH 10.0.0.5:22', REASONS.refused],
      ['self-signed certificate', REASONS.tls],
      ['unable to verify the first certificate', REASONS.tls],
      ['answer cut short', REASONS.cut],
      ['socket hang up', REASONS.cut],
      ['read ECONNRESET', REASONS.cut],
      ['answer larger than 65536 bytes', REASONS.tooLarge],
      ['La dirección no es una URL válida.', REASONS.badUrl],
      ['algo\u0000raro\u001b[31m de 10.0.0.5', REASONS.other],
      ['', REASONS.other],
    ];
    for (const [error, reason] of cases) {
      const got = deliveryReason(null, error);
      expect(got, error).toBe(reason);
      expect(textProblem(got ?? '', { singleLine: true }), error).toBeNull();
      // A reason already kept is kept as it is.
      expect(deliveryReason(null, reason)).toBe(reason);
    }
  });

  it('recognises the real refusal of a private address, literal or resolved', async () => {
    const server = createServer((_req, res) => res.end('ok'));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as AddressInfo).port;
    let hits = 0;
    server.on('request', () => (hits += 1));
    try {
      for (const url of [`http://127.0.0.1:${port}/`, `http://localhost:${port}/`]) {
        const result = await postJson(url, '{}', {}, OPTIONS);
        expect(result.kind, url).toBe('not-sent');
        expect(reasonOf(result), url).toBe(REASONS.privateAddress);
      }
      expect(hits).toBe(0);
    } finally {
      await new Promise<void>((r) => server.close(() => r()));
    }
  });
});

describe('isPlainlyPrivateHost', () => {
  it('refuses private literals and local names, leaves other names to the delivery check', () => {
    for (const host of [
      'localhost',
      'LOCALHOST.',
      'api.localhost',
      '127.0.0.1',
      '10.1.2.3',
      '169.254.169.254',
      '[::1]',
      '[::ffff:7f00:1]',
      '[fd00::1]',
      '0.0.0.0',
    ])
      expect(isPlainlyPrivateHost(host), host).toBe(true);
    for (const host of [
      'hooks.example.com',
      '93.184.216.34',
      '[2606:4700::1111]',
      'localhost.example.com',
    ])
      expect(isPlainlyPrivateHost(host), host).toBe(false);
  });
});
