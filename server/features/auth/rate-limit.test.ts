import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  GOOD_PASSWORD,
  createTestApp,
  registerVerified,
  uniqueEmail,
  type TestApp,
} from '../../../tests/setup/test-app';
import { dbTargets } from '../../../tests/setup/test-db';
import { consumeRateLimit } from '../../lib/rate-limit';

describe.each(dbTargets())('rate limits on %s', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(target, {
      RATE_LIMIT_MAX_PER_IP: '5',
      RATE_LIMIT_MAX_PER_ACCOUNT: '3',
      RATE_LIMIT_WINDOW_SECONDS: '60',
    });
  });
  afterAll(async () => {
    await t.close();
  });

  it('limits sign-in attempts per account, whatever the address', async () => {
    const { email } = await registerVerified(t, 'Eva', '10.0.0.1');
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await t
        .client(`10.0.1.${i}`)
        .post('/api/auth/sign-in/email', { email, password: 'Wrong-Password-1' });
      statuses.push(res.status);
    }
    expect(statuses).toEqual([401, 401, 401, 429, 429]);
    const blocked = await t
      .client('10.0.2.1')
      .post('/api/auth/sign-in/email', { email, password: GOOD_PASSWORD });
    expect(blocked.status).toBe(429);
    expect(blocked.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(await blocked.json()).toMatchObject({ code: 'RATE_LIMITED' });
  });

  it('limits sign-in attempts per address, whatever the account', async () => {
    const statuses: number[] = [];
    let last: Response | undefined;
    for (let i = 0; i < 7; i++) {
      last = await t
        .client('10.9.9.9')
        .post('/api/auth/sign-in/email', { email: uniqueEmail(), password: 'Wrong-Password-1' });
      statuses.push(last.status);
    }
    expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(statuses.slice(5)).toEqual([429, 429]);
    // Regression: Better Auth's own limit answered without Retry-After and in English.
    expect(last?.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(await last?.json()).toEqual({
      code: 'RATE_LIMITED',
      message: 'Demasiados intentos. Espera un momento e inténtalo de nuevo.',
    });
    // Another address is not affected.
    expect(
      (
        await t
          .client('10.9.9.10')
          .post('/api/auth/sign-in/email', { email: uniqueEmail(), password: 'x' })
      ).status,
    ).toBe(401);
  });

  it('limits password-reset requests per account', async () => {
    const { email } = await registerVerified(t, 'Fede', '10.3.0.1');
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      statuses.push(
        (
          await t
            .client(`10.3.1.${i}`)
            .post('/api/auth/request-password-reset', { email, redirectTo: '/restablecer' })
        ).status,
      );
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
  });

  it('counts atomically: 40 concurrent hits on a limit of 10 let exactly 10 through', async () => {
    const key = `test:${uniqueEmail()}`;
    const results = await Promise.all(
      Array.from({ length: 40 }, () =>
        consumeRateLimit(t.database.db, key, { window: 60, max: 10 }),
      ),
    );
    expect(results.filter((r) => r.allowed)).toHaveLength(10);
  });

  it('opens a new window once the old one has passed', async () => {
    const key = `test:${uniqueEmail()}`;
    const now = Date.now();
    await consumeRateLimit(t.database.db, key, { window: 1, max: 1 }, now);
    expect(
      (await consumeRateLimit(t.database.db, key, { window: 1, max: 1 }, now + 10)).allowed,
    ).toBe(false);
    expect(
      (await consumeRateLimit(t.database.db, key, { window: 1, max: 1 }, now + 1500)).allowed,
    ).toBe(true);
  });
});
