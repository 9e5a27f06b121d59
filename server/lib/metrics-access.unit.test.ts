import { describe, expect, it } from 'vitest';
import { bearerMatches, metricsAccess } from './metrics-access';

const TOKEN = 'metricas-0123456789abcdef';

describe('bearerMatches', () => {
  it('takes exactly the token as a bearer credential', () => {
    expect(bearerMatches(`Bearer ${TOKEN}`, TOKEN)).toBe(true);
    expect(bearerMatches(`bearer ${TOKEN}`, TOKEN)).toBe(true);
    for (const header of [
      undefined,
      '',
      'Bearer',
      'Bearer ',
      TOKEN,
      `Basic ${TOKEN}`,
      `Bearer ${TOKEN}x`,
      `Bearer ${TOKEN.slice(1)}`,
      `Bearer ${TOKEN} extra`,
    ])
      expect(bearerMatches(header, TOKEN), String(header)).toBe(false);
  });
});

describe('metricsAccess', () => {
  const local = new Headers();
  it('with a token: only its bearer, from anywhere', () => {
    expect(metricsAccess(TOKEN, '127.0.0.1', local)).toBe('unauthorized');
    expect(
      metricsAccess(TOKEN, '203.0.113.9', new Headers({ Authorization: `Bearer ${TOKEN}` })),
    ).toBe('allowed');
  });

  it('without a token: only a direct caller on this machine; others do not learn it exists', () => {
    expect(metricsAccess(undefined, '127.0.0.1', local)).toBe('allowed');
    expect(metricsAccess(undefined, '203.0.113.9', local)).toBe('not-found');
    expect(metricsAccess(undefined, null, local)).toBe('not-found');
    expect(
      metricsAccess(undefined, '127.0.0.1', new Headers({ 'X-Forwarded-For': '203.0.113.9' })),
    ).toBe('not-found');
  });
});
