import { redirect } from 'react-router';
import { RegisterSchema } from '../../../shared/schemas/auth';
import { api } from '../../lib/api';
import { apiFailure, parseForm, type FormResult } from '../../lib/form-data';
import { rememberPendingVerification } from '../../lib/pending-verification';

/** The /register form, sent: checks it and asks for the account. */
export async function register(request: Request): Promise<FormResult | Response> {
  const parsed = parseForm(RegisterSchema, await request.formData());
  if ('error' in parsed) return parsed.error;
  try {
    await api('/api/auth/sign-up/email', {
      body: {
        name: parsed.data.name,
        email: parsed.data.email,
        password: parsed.data.password,
        callbackURL: '/verify-email',
      },
    });
  } catch (err) {
    return apiFailure(err, {
      PASSWORD_TOO_COMMON: 'password',
      PASSWORD_TOO_SHORT: 'password',
      PASSWORD_TOO_LONG: 'password',
      INVALID_EMAIL: 'email',
    });
  }
  // The answer is the same for a new address and one that already has an account, and signs
  // nobody in (docs/decisions/0010): the e-mailed link does. /verify-email says where it went.
  rememberPendingVerification(parsed.data.email);
  return redirect('/verify-email');
}
