import { redirect } from 'react-router';
import { LoginSchema } from '../../../shared/schemas/auth';
import { ApiError, api } from '../../lib/api';
import { apiFailure, parseForm, type FormResult } from '../../lib/form-data';
import { afterSignIn, signInMessage } from './after-sign-in';

/** The /login form, sent: checks it, signs in, and says where to go next. */
export async function signIn(request: Request): Promise<FormResult | Response> {
  const parsed = parseForm(LoginSchema, await request.formData());
  if ('error' in parsed) return parsed.error;
  let body: unknown;
  try {
    body = await api('/api/auth/sign-in/email', {
      body: { email: parsed.data.email, password: parsed.data.password, rememberMe: true },
    });
  } catch (err) {
    if (err instanceof ApiError) return { formError: signInMessage(err), fields: err.fields };
    return apiFailure(err);
  }
  return redirect(await afterSignIn(body, new URL(request.url).searchParams.get('next')));
}
