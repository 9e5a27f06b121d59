import { z } from 'zod';
import { CUSTOMER_SEARCH_MIN_LENGTH, CustomerListSchema } from '../../../shared/schemas/admin';
import { AdminUserSecuritySchema, BlockUserSchema } from '../../../shared/schemas/security';
import { api, ApiError } from '../../lib/api';
import { settle, type Loaded } from '../../lib/loaded';
import type { AdminCustomerIntent, AdminCustomerResult, Customer, CustomerSecurity } from './types';

export const SEARCH_MIN_LENGTH = CUSTOMER_SEARCH_MIN_LENGTH;

function userPath(id: string): string {
  return `/api/admin/users/${encodeURIComponent(id)}`;
}

export type AdminCustomersData = {
  /** The words searched (from `?q=`). */
  query: string;
  /** The customers found; null before a search of at least 2 characters. */
  customers: Loaded<Customer[]> | null;
  /** The chosen customer's security (from `?id=`); null before one is chosen. */
  selected: Loaded<CustomerSecurity> | null;
};

/** The search (`?q=`) and the chosen customer (`?id=`), from the address, in parallel. */
export async function loadAdminCustomers(url: URL): Promise<AdminCustomersData> {
  const query = (url.searchParams.get('q') ?? '').trim().slice(0, 100);
  const id = url.searchParams.get('id');
  const [customers, selected] = await Promise.all([
    query.length >= SEARCH_MIN_LENGTH
      ? settle(
          api
            .get(`/api/admin/users?q=${encodeURIComponent(query)}`, CustomerListSchema)
            .then((r) => r.items),
        )
      : Promise.resolve(null),
    id
      ? settle(api.get(`${userPath(id)}/security`, AdminUserSecuritySchema))
      : Promise.resolve(null),
  ]);
  return { query, customers, selected };
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
