import { redirectDocument } from 'react-router';
import { z } from 'zod';
import { EmailSchema } from '../../../shared/schemas/auth';
import {
  DeleteAccountSchema,
  SecurityOverviewSchema,
  SessionListSchema,
} from '../../../shared/schemas/security';
import { api, ApiError } from '../../lib/api';
import { settle, type Loaded } from '../../lib/loaded';
import { reloadMe } from '../../lib/session';
import { normalizePhone, PHONE_ERROR, phoneProblem } from './phone-number';
import type {
  Overview,
  SecurityActionResult,
  SecurityIntent,
  SecurityPayload,
  Session,
} from './types';

/** Better Auth's codes met on Seguridad, as people should read them. */
const CODE_MESSAGES: Record<string, string> = {
  INVALID_PASSWORD: 'La contraseña no es correcta.',
  INVALID_CODE: 'El código no es correcto o ya caducó.',
  INVALID_OTP: 'El código no es correcto.',
  OTP_EXPIRED: 'El código caducó. Pide uno nuevo.',
  OTP_NOT_FOUND: 'Primero pide un código para este número.',
  TOO_MANY_ATTEMPTS: 'Demasiados intentos con este código. Pide uno nuevo.',
  INVALID_PHONE_NUMBER: PHONE_ERROR,
  PHONE_NUMBER_EXIST: 'Ese número ya está en otra cuenta.',
  PHONE_NUMBER_PENDING_VERIFICATION: 'Ese número ya está en otra cuenta.',
  FAILED_TO_UNLINK_LAST_ACCOUNT:
    'No puedes quitar tu último método de acceso: añade otro antes de desvincular este.',
  ACCOUNT_NOT_FOUND: 'Ese método ya no está vinculado a tu cuenta.',
  CREDENTIAL_ACCOUNT_NOT_FOUND: 'Tu cuenta no tiene contraseña.',
  EMAIL_IS_THE_SAME: 'Esa ya es tu dirección de correo.',
  USER_ALREADY_EXISTS: 'No podemos cambiar tu correo a esa dirección.',
  USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL: 'No podemos cambiar tu correo a esa dirección.',
};

/** What link-social's `?error=` means, as the person should read it. */
const LINK_ERRORS: Record<string, string> = {
  account_already_linked_to_different_user: 'Esa cuenta ya está vinculada a otro usuario.',
  email_does_not_match:
    'El correo de esa cuenta no coincide con el tuyo. Vincula una cuenta con tu mismo correo.',
  unable_to_link_account: 'No pudimos vincular esa cuenta. Inténtalo de nuevo.',
  email_not_found: 'Esa cuenta no nos dio ningún correo, así que no podemos vincularla.',
  email_not_verified: 'El correo de esa cuenta no está verificado en el proveedor.',
};

/** The message for a `?error=` brought back from linking an account (null without one). */
export function linkErrorMessage(url: URL): string | null {
  const code = url.searchParams.get('error');
  if (!code) return null;
  return LINK_ERRORS[code] ?? 'No pudimos vincular esa cuenta. Inténtalo de nuevo.';
}

function messageOf(err: ApiError): string {
  return CODE_MESSAGES[err.code] ?? err.message;
}

export type SecurityData = {
  overview: Loaded<Overview>;
  sessions: Loaded<Session[]>;
  /** A `?error=` from linking an account, in words. */
  linkError: string | null;
};

/** The account's security and its sessions, each loaded on its own. */
export async function loadSecurity(url: URL): Promise<SecurityData> {
  const [overview, sessions] = await Promise.all([
    settle(api.get('/api/me/security', SecurityOverviewSchema)),
    settle(api.get('/api/me/sessions', SessionListSchema).then((r) => r.items)),
  ]);
  return { overview, sessions, linkError: linkErrorMessage(url) };
}

const BackupCodesSchema = z.looseObject({ backupCodes: z.array(z.string()) });
const LinkSchema = z.looseObject({ url: z.string() });
const RevokedSchema = z.looseObject({ revoked: z.number() });

const EmailChangeSchema = z.object({ newEmail: EmailSchema });

function fail(
  intent: SecurityIntent,
  formError: string,
  fields?: Record<string, string>,
): SecurityActionResult {
  return { intent, ok: false, formError, ...(fields ? { fields } : {}) };
}

function firstErrors(error: z.ZodError): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of error.issues) out[String(issue.path[0] ?? 'form')] ??= issue.message;
  return out;
}

async function run(payload: SecurityPayload): Promise<SecurityActionResult | Response> {
  switch (payload.intent) {
    case 'session-revoke': {
      await api(`/api/me/sessions/${encodeURIComponent(payload.id)}`, { method: 'DELETE' });
      return { intent: payload.intent, ok: true, message: 'Sesión cerrada en ese dispositivo.' };
    }
    case 'sessions-revoke-others': {
      const { revoked } = await api.post('/api/me/sessions/revoke-others', RevokedSchema);
      return {
        intent: payload.intent,
        ok: true,
        message:
          revoked === 0
            ? 'No había otras sesiones abiertas.'
            : revoked === 1
              ? 'Cerramos 1 sesión en otro dispositivo.'
              : `Cerramos ${revoked} sesiones en otros dispositivos.`,
      };
    }
    case 'method-unlink': {
      await api('/api/auth/unlink-account', {
        body: { providerId: payload.providerId, accountId: payload.accountId },
      });
      return {
        intent: payload.intent,
        ok: true,
        message: `${payload.label}: desvinculado. Ya no puedes entrar con ese método.`,
      };
    }
    case 'method-link': {
      const { url } = await api.post('/api/auth/link-social', LinkSchema, {
        provider: payload.provider,
        callbackURL: '/profile#seguridad',
        errorCallbackURL: '/profile#seguridad',
      });
      // The provider's page: a whole-document navigation, away from the app.
      return redirectDocument(url);
    }
    case 'phone-remove': {
      await api('/api/me/phone', { method: 'DELETE' });
      return {
        intent: payload.intent,
        ok: true,
        message: 'Teléfono quitado: ya no puedes entrar con un código por SMS.',
      };
    }
    case 'phone-send': {
      const phoneNumber = normalizePhone(payload.phoneNumber);
      const problem = phoneProblem(phoneNumber);
      if (problem) return fail(payload.intent, problem, { phoneNumber: problem });
      await api('/api/auth/phone-number/send-otp', { body: { phoneNumber } });
      return {
        intent: payload.intent,
        ok: true,
        phoneNumber,
        message: `Te enviamos un SMS con un código de 6 dígitos al ${phoneNumber}.`,
      };
    }
    case 'phone-verify': {
      const code = payload.code.trim();
      if (!/^\d{6}$/.test(code)) {
        const message = 'Escribe el código de 6 dígitos que te llegó por SMS.';
        return fail(payload.intent, message, { code: message });
      }
      await api('/api/auth/phone-number/verify', {
        body: { phoneNumber: payload.phoneNumber, code, updatePhoneNumber: true },
      });
      return {
        intent: payload.intent,
        ok: true,
        phoneNumber: payload.phoneNumber,
        message: `Número verificado: ${payload.phoneNumber}. Ya puedes entrar con un código por SMS.`,
      };
    }
    case 'two-factor-disable': {
      const missing = missingConfirmation(payload);
      if (missing) return fail(payload.intent, missing.message, missing.fields);
      await api('/api/auth/two-factor/disable', { body: confirmation(payload) });
      await reloadMe();
      return {
        intent: payload.intent,
        ok: true,
        message: 'Verificación en dos pasos desactivada.',
      };
    }
    case 'backup-codes': {
      const missing = missingConfirmation(payload);
      if (missing) return fail(payload.intent, missing.message, missing.fields);
      const { backupCodes } = await api.post(
        '/api/auth/two-factor/generate-backup-codes',
        BackupCodesSchema,
        confirmation(payload),
      );
      return {
        intent: payload.intent,
        ok: true,
        backupCodes,
        message: 'Nuevos códigos de respaldo creados: los anteriores ya no sirven.',
      };
    }
    case 'email-change': {
      const parsed = EmailChangeSchema.safeParse({ newEmail: payload.newEmail });
      if (!parsed.success) {
        const fields = firstErrors(parsed.error);
        return fail(payload.intent, fields.newEmail ?? 'Revisa el correo.', fields);
      }
      await api('/api/auth/change-email', {
        body: { newEmail: parsed.data.newEmail, callbackURL: '/profile' },
      });
      return {
        intent: payload.intent,
        ok: true,
        message:
          'Te enviamos un correo a tu dirección actual para confirmar el cambio; después confirmarás la nueva.',
      };
    }
    case 'account-delete': {
      const parsed = DeleteAccountSchema.safeParse({
        ...(payload.password ? { password: payload.password } : {}),
        ...(payload.code ? { code: payload.code } : {}),
        confirm: payload.confirm.trim(),
      });
      if (!parsed.success) {
        const fields = firstErrors(parsed.error);
        // Without a password field, the missing confirmation belongs to the code.
        if (payload.password === undefined && fields.password) {
          fields.code ??= fields.password;
          delete fields.password;
        }
        return fail(payload.intent, 'Revisa los campos marcados.', fields);
      }
      await api('/api/me/delete', { body: parsed.data });
      // The server ended the session with the account. A fresh document at the home page: the
      // session store reads it again from there (signed out), and nothing of the account stays in
      // this tab's memory. (Ending the session here first would unmount this form, and React
      // Router drops a redirect answered to an unmounted fetcher.)
      return redirectDocument('/');
    }
  }
}

/**
 * How a two-factor change is confirmed: the password, or for an account without one a current
 * code of its app (the server asks for it).
 */
function confirmation(payload: { password?: string; code?: string }) {
  if (payload.password !== undefined) return { password: payload.password };
  return { code: (payload.code ?? '').replace(/\s/g, '') };
}

function missingConfirmation(payload: {
  password?: string;
  code?: string;
}): { message: string; fields: Record<string, string> } | null {
  if (payload.password === '') {
    const message = 'Escribe tu contraseña.';
    return { message, fields: { password: message } };
  }
  if (payload.password === undefined && !/^\d{6}$/.test((payload.code ?? '').replace(/\s/g, ''))) {
    const message = 'Escribe el código de 6 dígitos de tu aplicación.';
    return { message, fields: { code: message } };
  }
  return null;
}

const INTENTS: readonly SecurityIntent[] = [
  'session-revoke',
  'sessions-revoke-others',
  'method-unlink',
  'method-link',
  'phone-remove',
  'phone-send',
  'phone-verify',
  'two-factor-disable',
  'backup-codes',
  'email-change',
  'account-delete',
];

/** Whether a parsed JSON body is one of Seguridad's forms. */
export function isSecurityPayload(value: unknown): value is SecurityPayload {
  return (
    typeof value === 'object' &&
    value !== null &&
    INTENTS.includes((value as { intent?: unknown }).intent as SecurityIntent)
  );
}

/** Which input an API refusal belongs to, by intent and code. */
function fieldFor(payload: SecurityPayload, code: string): string | undefined {
  const intent = payload.intent;
  if (code === 'INVALID_PASSWORD') return 'password';
  if (intent === 'account-delete' && code === 'FORBIDDEN')
    return payload.password ? 'password' : 'code';
  if (intent === 'phone-send' && code === 'INVALID_PHONE_NUMBER') return 'phoneNumber';
  if (intent === 'phone-send' && code.startsWith('PHONE_NUMBER')) return 'phoneNumber';
  if (intent === 'phone-verify' && /OTP|ATTEMPTS/.test(code)) return 'code';
  if ((intent === 'two-factor-disable' || intent === 'backup-codes') && code === 'INVALID_CODE')
    return 'code';
  if (intent === 'email-change') return 'newEmail';
  return undefined;
}

/** Profile's clientAction for Seguridad (JSON body): by `intent`, API errors mapped. */
export async function runSecurityAction(
  payload: SecurityPayload,
): Promise<SecurityActionResult | Response> {
  try {
    return await run(payload);
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    const message = messageOf(err);
    const field = fieldFor(payload, err.code);
    return {
      intent: payload.intent,
      ok: false,
      code: err.code,
      formError: message,
      fields: field ? { ...err.fields, [field]: message } : err.fields,
    };
  }
}
