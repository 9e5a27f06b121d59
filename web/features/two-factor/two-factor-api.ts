import { z } from 'zod';
import { api } from '../../lib/api';
import { postTwoFactor } from './challenge';

// The calls of the two-factor enrolment (docs/decisions/0014-sign-in-methods.md).

/**
 * The parts of GET /api/me/security (SecurityOverview in shared/schemas/security) the enrolment
 * reads; only these are checked, so the page does not bring in the whole security schema.
 */
const EnrolmentStartSchema = z.looseObject({
  email: z.string(),
  hasPassword: z.boolean(),
  twoFactorEnabled: z.boolean(),
});

export function readSecurity() {
  return api.get('/api/me/security', EnrolmentStartSchema);
}

const EnableAnswerSchema = z.looseObject({
  totpURI: z.string().startsWith('otpauth://'),
  backupCodes: z.array(z.string()).min(1),
});
export type Enrolment = z.infer<typeof EnableAnswerSchema>;

/** Starts the enrolment: a new secret and backup codes (not active until a code confirms them). */
export function enableTwoFactor(password: string | undefined): Promise<Enrolment> {
  return api.post('/api/auth/two-factor/enable', EnableAnswerSchema, password ? { password } : {});
}

/** Confirms the enrolment with the app's current code: two-factor is on from now. */
export async function confirmTwoFactor(code: string): Promise<void> {
  await postTwoFactor('/api/auth/two-factor/verify-totp', { code });
}
