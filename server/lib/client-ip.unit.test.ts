import { describe, expect, it } from 'vitest';
import { isLocalCaller, isLoopback } from './client-ip';

describe('isLoopback', () => {
  it('takes IPv4 and IPv6 loopback, also IPv4-mapped, and nothing else', () => {
    for (const a of ['127.0.0.1', '127.1.2.3', '::1', '::ffff:127.0.0.1', '::FFFF:127.0.0.2'])
      expect(isLoopback(a), a).toBe(true);
    for (const a of [
      '10.0.0.1',
      '0.0.0.0',
      '::',
      '::ffff:10.0.0.1',
      '127.evil.example',
      'unknown',
      '',
    ])
      expect(isLoopback(a), a).toBe(false);
  });
});

describe('isLocalCaller', () => {
  const none = new Headers();
  it('regression: a forged X-Forwarded-For or a same-host reverse proxy made a visitor local', () => {
    // The socket decides: a header never grants access.
    expect(isLocalCaller('203.0.113.9', new Headers({ 'X-Forwarded-For': '127.0.0.1' }))).toBe(
      false,
    );
    // A proxy on this machine connects from loopback but says whom it relays.
    for (const header of [
      'Forwarded',
      'X-Forwarded-For',
      'X-Forwarded-Host',
      'X-Forwarded-Proto',
      'X-Real-IP',
      'Via',
    ])
      expect(isLocalCaller('127.0.0.1', new Headers({ [header]: 'x' })), header).toBe(false);
  });

  it('takes a direct caller on loopback, and nobody without a socket', () => {
    expect(isLocalCaller('127.0.0.1', none)).toBe(true);
    expect(isLocalCaller('::1', none)).toBe(true);
    expect(isLocalCaller('192.168.1.20', none)).toBe(false);
    expect(isLocalCaller(null, none)).toBe(false);
  });
});
