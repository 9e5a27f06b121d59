import { describe, expect, it } from 'vitest';
import * as limits from './auth-limits';
import * as schemas from './schemas/auth';

describe('auth limits', () => {
  it('are the numbers the schemas enforce', () => {
    expect(limits.PASSWORD_MIN).toBe(schemas.PASSWORD_MIN);
    expect(limits.PASSWORD_MAX).toBe(schemas.PASSWORD_MAX);
    expect(limits.NAME_MAX).toBe(schemas.NAME_MAX);
    expect(schemas.PasswordSchema.safeParse('a'.repeat(limits.PASSWORD_MIN)).success).toBe(true);
    expect(schemas.PasswordSchema.safeParse('a'.repeat(limits.PASSWORD_MIN - 1)).success).toBe(
      false,
    );
    expect(schemas.PasswordSchema.safeParse('a'.repeat(limits.PASSWORD_MAX + 1)).success).toBe(
      false,
    );
  });
});
