import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { parseCookies, verifiedToken } from './session-lookup';

const SECRET = 'a-secret-of-at-least-thirty-two-characters';
const sign = (token: string, secret = SECRET) =>
  `${token}.${createHmac('sha256', secret).update(token).digest('base64')}`;

describe('verifiedToken', () => {
  it('accepts the token signed with the secret, as Better Auth signs it', () => {
    expect(verifiedToken(sign('abc123'), SECRET)).toBe('abc123');
    expect(verifiedToken(sign('with.dots.inside'), SECRET)).toBe('with.dots.inside');
  });

  it('refuses another secret, a changed token, a cut signature or no signature', () => {
    expect(verifiedToken(sign('abc123', `${SECRET}!`), SECRET)).toBeNull();
    expect(verifiedToken(sign('abc123').replace('abc123', 'abc124'), SECRET)).toBeNull();
    expect(verifiedToken(sign('abc123').slice(0, -2), SECRET)).toBeNull();
    expect(verifiedToken('abc123', SECRET)).toBeNull();
    expect(verifiedToken(`.${sign('x').split('.')[1]}`, SECRET)).toBeNull();
  });
});

describe('parseCookies', () => {
  it('reads names and URL-decoded values', () => {
    const cookies = parseCookies('a=1; b=x%2By%3D; c="quoted"');
    expect(cookies && Object.fromEntries(cookies)).toEqual({ a: '1', b: 'x+y=', c: 'quoted' });
    expect(parseCookies(null)?.size).toBe(0);
  });

  it('gives up (undefined) on what a stricter reading could see differently', () => {
    expect(parseCookies('a=1; a=2')).toBeUndefined();
    expect(parseCookies('a=%E0%A4%A')).toBeUndefined();
    expect(parseCookies('a=1; junk; b=2')).toBeUndefined();
    expect(parseCookies('a="open')).toBeUndefined();
  });
});
