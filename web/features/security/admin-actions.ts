import { z } from 'zod';
import { AdminUserSecuritySchema, BlockUserSchema } from '../../../shared/schemas/security';
import { api, ApiError } from '../../lib/api';
import type { AdminCustomerIntent, AdminCustomerResult } from './types';

function userPath(id: string): string {
  return `/api/admin/users/${encodeURIComponent(id)}`;
}

const RevokedSchema = z.looseObject({ revoked: z.number() });
const INTENTS: readonly AdminCustomerIntent[] = ['revoke-sessions', 'block', 'unblock'];

function isIntent(value: unknown): value is AdminCustomerIntent {
  return INTENTS.includes(value as AdminCustomerIntent);
}

async function run(intent: AdminCustomerIntent, id: string, formData: FormData) {
  switch (intent) {
    case 'revoke-sessions': {
      const { revoked } = await api.post(`${userPath(id)}/sessions/revoke`, RevokedSchema);
      return {
        intent,
        ok: true,
        message:
          revoked === 0
            ? 'No tenía sesiones abiertas.'
            : revoked === 1
              ? 'Cerramos 1 sesión.'
              : `Cerramos ${revoked} sesiones.`,
      };
    }
    case 'block': {
      const parsed = BlockUserSchema.safeParse({ reason: formData.get('reason') ?? '' });
      if (!parsed.success) {
        const message = parsed.error.issues[0]?.message ?? 'Escribe el motivo del bloqueo.';
        return { intent, ok: false, fields: { reason: message } };
      }
      const user = await api.post(`${userPath(id)}/block`, AdminUserSecuritySchema, parsed.data);
      return {
        intent,
        ok: true,
        message: `Cuenta de ${user.email} bloqueada: cerramos sus sesiones y ya no puede entrar ni usar sus claves API.`,
      };
    }
    case 'unblock': {
      const user = await api.post(`${userPath(id)}/unblock`, AdminUserSecuritySchema);
      return {
        intent,
        ok: true,
        message: `Cuenta de ${user.email} desbloqueada: ya puede volver a entrar.`,
      };
    }
  }
}

/** /admin/clientes' clientAction: one customer (`id`), one action (`intent`), form data. */
export async function runAdminCustomerAction(formData: FormData): Promise<AdminCustomerResult> {
  const intent = formData.get('intent');
  const id = formData.get('id');
  if (!isIntent(intent) || typeof id !== 'string' || id === '')
    return { intent: null, ok: false, formError: 'Acción desconocida.' };
  try {
    return await run(intent, id, formData);
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    return {
      intent,
      ok: false,
      formError: err.message,
      ...(err.fields.reason ? { fields: { reason: err.fields.reason } } : {}),
    };
  }
}
