import { redirect } from 'react-router';
import { LoginSchema } from '../../../shared/schemas/auth';
import { api } from '../../lib/api';
import { apiFailure, parseForm, type FormResult } from '../../lib/form-data';
import { forgetPendingVerification } from '../../lib/pending-verification';
import { refresh } from '../../lib/session';
import { safeNextPath } from '../../lib/session-timing';

/** The /login form, sent: checks it, signs in, and says where to go next. */
export async function signIn(request: Request): Promise<FormResult | Response> {
  const parsed = parseForm(LoginSchema, await request.formData());
  if ('error' in parsed) return parsed.error;
  try {
    await api('/api/auth/sign-in/email', {
      body: { email: parsed.data.email, password: parsed.data.password, rememberMe: true },
    });
  } catch (err) {
    return apiFailure(err);
  }
  // Signed in now: an address registered earlier in this tab no longer decides where to go.
  forgetPendingVerification();
  const session = await refresh();
  if (session.status === 'authenticated' && !session.user.emailVerified)
    return redirect('/verify-email');
  return redirect(safeNextPath(new URL(request.url).searchParams.get('next')));
}
