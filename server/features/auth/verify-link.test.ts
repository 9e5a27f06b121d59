// Issue 20: a verification link with characters appended by a mail client (a period, a bracket)
// spent the token without verifying the account; the intact link then said «ya se usó».
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { session, user } from '../../db/schema/auth';
import {
  GOOD_PASSWORD,
  createTestApp,
  linkIn,
  uniqueEmail,
  type TestApp,
} from '../../../tests/setup/test-app';
import { dbTargets } from '../../../tests/setup/test-db';

describe.each(dbTargets())('verification links as mail clients deliver them on %s', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(target);
  });
  afterAll(async () => {
    await t.close();
  });

  /** A new account and its e-mailed link: `/api/auth/verify-email?token=…&callbackURL=…`. */
  async function signUp(): Promise<{ email: string; link: string }> {
    const email = uniqueEmail();
    const res = await t.client().post('/api/auth/sign-up/email', {
      name: 'Bea',
      email,
      password: GOOD_PASSWORD,
      callbackURL: '/verify-email',
    });
    expect(res.status).toBe(200);
    const mail = await t.waitForMail(email, /Verifica tu correo/);
    return { email, link: linkIn(mail, '/api/auth/verify-email') };
  }

  async function verified(email: string): Promise<boolean> {
    const [row] = await t.database.db.select().from(user).where(eq(user.email, email));
    return row?.emailVerified === true;
  }

  /** The same link with the token last, as other mail layouts leave it. */
  function tokenLast(link: string): string {
    return link.replace(/\?token=([^&]+)&callbackURL=([^&]+)$/, '?callbackURL=$2&token=$1');
  }

  it('a verification link with characters appended verifies the account and lands on /verify-email', async () => {
    for (const extra of ['.', ')', '%29', ']', '>', '"', "'", ',', '%5C', ').']) {
      const { email, link } = await signUp();
      const res = await t.client().get(`${link}${extra}`);
      expect(res.status, extra).toBe(302);
      expect(res.headers.get('location'), extra).toBe('/verify-email');
      expect(res.headers.get('set-cookie'), extra).toMatch(/session_token=/);
      expect(await verified(email), extra).toBe(true);
      // The intact link was the same link: it is used now.
      const again = await t.client().get(link);
      expect(again.headers.get('location')).toBe('/verify-email?error=LINK_USED');
    }
    for (const extra of ['.', ')', '%29']) {
      const { email, link } = await signUp();
      const res = await t.client().get(`${tokenLast(link)}${extra}`);
      expect(res.headers.get('location'), extra).toBe('/verify-email');
      expect(await verified(email), extra).toBe(true);
    }
  });

  it('a verification link that does not verify does not spend the token: the intact link still does', async () => {
    // A token damaged beyond what can be tidied, and a page to go to that is refused.
    for (const damaged of [
      (link: string) => `${tokenLast(link)}x`,
      (link: string) => link.replace(/callbackURL=[^&]+/, 'callbackURL=%2Fverify-email%5Cx'),
      (link: string) => link.replace(/callbackURL=[^&]+/, 'callbackURL=https%3A%2F%2Fevil.example'),
    ]) {
      const { email, link } = await signUp();
      const bad = await t.client().get(damaged(link));
      expect(bad.headers.get('location') ?? '').not.toBe('/verify-email');
      expect(await verified(email)).toBe(false);
      const good = await t.client().get(link);
      expect(good.status).toBe(302);
      expect(good.headers.get('location')).toBe('/verify-email');
      expect(await verified(email)).toBe(true);
    }
  });

  it('still usable once: after it verified, the link with or without characters appended signs nobody in again', async () => {
    const { email, link } = await signUp();
    expect((await t.client().get(link)).headers.get('location')).toBe('/verify-email');
    const [account] = await t.database.db.select().from(user).where(eq(user.email, email));
    const sessionsBefore = await t.database.db
      .select()
      .from(session)
      .where(eq(session.userId, account?.id ?? ''));
    for (const attempt of [`${link}.`, link, `${tokenLast(link)})`, link]) {
      const res = await t.client().get(attempt);
      expect(res.headers.get('location'), attempt).toBe('/verify-email?error=LINK_USED');
      expect(res.headers.get('set-cookie') ?? '').not.toMatch(/session_token=[^;]/);
    }
    const sessionsAfter = await t.database.db
      .select()
      .from(session)
      .where(eq(session.userId, account?.id ?? ''));
    expect(sessionsAfter.length).toBe(sessionsBefore.length);
  });
});
