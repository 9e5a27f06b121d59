import { describe, expect, it } from 'vitest';
import { tidyEmailLink } from './email-links';

const BASE = 'https://cometa.example/api/auth/verify-email';
const TOKEN = 'eyJhbGciOiJIUzI1NiJ9.eyJlbWFpbCI6ImFAYi5jIn0.sig-Nature_09';

describe('verification link with characters appended (issue 20)', () => {
  it('removes what a mail client appended to the page to go to', () => {
    for (const extra of ['.', ')', ']', '>', '"', "'", ',', '\\', '!', ').', ' '])
      expect(
        tidyEmailLink(
          `${BASE}?token=${TOKEN}&callbackURL=%2Fverify-email${encodeURIComponent(extra)}`,
        ),
        extra,
      ).toBe(`${BASE}?token=${TOKEN}&callbackURL=%2Fverify-email`);
  });

  it('removes what was appended to a token that ends the link', () => {
    for (const extra of ['.', ')', '%29', '>', '.)'])
      expect(
        tidyEmailLink(`${BASE}?callbackURL=%2Fverify-email&token=${TOKEN}${extra}`),
        extra,
      ).toBe(`${BASE}?callbackURL=%2Fverify-email&token=${TOKEN}`);
  });

  it('leaves intact links, other paths and a damaged middle alone', () => {
    const intact = `${BASE}?token=${TOKEN}&callbackURL=%2Fverify-email`;
    expect(tidyEmailLink(intact)).toBe(intact);
    const other = 'https://cometa.example/api/auth/reset-password/abc.?callbackURL=%2Fx.';
    expect(tidyEmailLink(other)).toBe(other);
    const middle = `${BASE}?token=eyJ).x&callbackURL=%2Fverify-email`;
    expect(tidyEmailLink(middle)).toBe(middle);
    expect(tidyEmailLink('https://cometa.example/api/auth/magic-link/verify?token=abc).')).toBe(
      'https://cometa.example/api/auth/magic-link/verify?token=abc',
    );
  });
});
