import { z } from 'zod';
import { parseAmount } from '../../../shared/money';
import { AdjustmentSchema, AmountSchema } from '../../../shared/schemas/wallet';
import { api, ApiError } from '../../lib/api';
import { getSessionState, reloadMe } from '../../lib/session';
import { apiFailure, parseForm } from '../auth/form-data';
import { postWithIdempotencyKey, settle } from './admin-api';
import {
  ADMIN_INTENTS,
  type AdjustResponse,
  type AdminActionResult,
  type AdminIntent,
  type AdminUser,
  type ApproveResponse,
  type CreatedBatch,
  type Loaded,
  type ManualMethod,
  type PendingRequest,
  type VoucherBatch,
} from './types';

export const MAX_BATCH_SIZE = 1000;
export const MAX_NOTE_LENGTH = 200;
export const SEARCH_MIN_LENGTH = 2;

export type AdminPaymentsData = {
  requests: Loaded<PendingRequest[]>;
  methods: Loaded<ManualMethod[]>;
  batches: Loaded<VoucherBatch[]>;
};

/** The three lists of the page, fetched in parallel; each can fail on its own. */
export async function loadAdminPayments(): Promise<AdminPaymentsData> {
  const [requests, methods, batches] = await Promise.all([
    settle(
      api<{ items: PendingRequest[] }>('/api/admin/funds/requests?status=pending').then(
        (r) => r.items,
      ),
    ),
    settle(api<{ items: ManualMethod[] }>('/api/admin/funds/methods').then((r) => r.items)),
    settle(api<{ items: VoucherBatch[] }>('/api/admin/vouchers').then((r) => r.items)),
  ]);
  return { requests, methods, batches };
}

const RejectFormSchema = z.object({
  reason: z
    .string({ error: 'Escribe el motivo del rechazo.' })
    .trim()
    .min(3, 'Escribe el motivo del rechazo (al menos 3 caracteres).')
    .max(500, 'El motivo no puede tener más de 500 caracteres.'),
});

const MIN_OVER_MAX = 'El máximo debe ser mayor o igual que el mínimo.';

const MethodFormSchema = z
  .object({
    name: z
      .string({ error: 'Escribe el nombre del método.' })
      .trim()
      .min(1, 'Escribe el nombre del método.')
      .max(80, 'El nombre no puede tener más de 80 caracteres.'),
    instructions: z
      .string({ error: 'Escribe las instrucciones de pago.' })
      .trim()
      .min(1, 'Escribe las instrucciones de pago.')
      .max(2000, 'Las instrucciones no pueden tener más de 2000 caracteres.'),
    minAmount: AmountSchema,
    maxAmount: AmountSchema,
    sortOrder: z
      .string()
      .trim()
      .regex(/^\d{0,4}$/, 'El orden debe ser un número entero entre 0 y 9999.')
      .optional(),
  })
  .refine((v) => (parseAmount(v.minAmount) ?? 0n) <= (parseAmount(v.maxAmount) ?? 0n), {
    path: ['maxAmount'],
    message: MIN_OVER_MAX,
  });

const BatchFormSchema = z.object({
  amount: AmountSchema,
  count: z
    .string({ error: 'Escribe cuántos códigos quieres crear.' })
    .trim()
    .regex(/^\d+$/, 'La cantidad de códigos debe ser un número entero.')
    .transform(Number)
    .refine((n) => n >= 1, 'Crea al menos 1 código.')
    .refine(
      (n) => n <= MAX_BATCH_SIZE,
      `No puedes crear más de ${MAX_BATCH_SIZE} códigos a la vez.`,
    ),
  expiresAt: z.string().trim().optional(),
  note: z
    .string()
    .trim()
    .max(MAX_NOTE_LENGTH, `La nota no puede tener más de ${MAX_NOTE_LENGTH} caracteres.`)
    .optional(),
});

const AdjustFormSchema = AdjustmentSchema.extend({
  userId: z.string().min(1, 'Elige un cliente.'),
  idempotencyKey: z.string().min(1),
});

function isIntent(value: unknown): value is AdminIntent {
  return typeof value === 'string' && (ADMIN_INTENTS as readonly string[]).includes(value);
}

function idPath(value: FormDataEntryValue | null): string {
  return encodeURIComponent(typeof value === 'string' ? value : '');
}

async function approve(formData: FormData): Promise<AdminActionResult> {
  const result = await api<ApproveResponse>(
    `/api/admin/funds/requests/${idPath(formData.get('id'))}/approve`,
    { method: 'POST' },
  );
  return { ok: true, intent: 'approve', balance: result.balance };
}

async function reject(formData: FormData): Promise<AdminActionResult> {
  const parsed = parseForm(RejectFormSchema, formData);
  if ('error' in parsed) return { ...parsed.error, intent: 'reject' };
  await api(`/api/admin/funds/requests/${idPath(formData.get('id'))}/reject`, {
    body: { reason: parsed.data.reason },
  });
  return { ok: true, intent: 'reject' };
}

async function createMethod(formData: FormData): Promise<AdminActionResult> {
  const parsed = parseForm(MethodFormSchema, formData);
  if ('error' in parsed) return { ...parsed.error, intent: 'create-method' };
  const { sortOrder, ...fields } = parsed.data;
  const created = await api<ManualMethod>('/api/admin/funds/methods', {
    body: { ...fields, active: true, sortOrder: sortOrder ? Number(sortOrder) : 0 },
  });
  return {
    ok: true,
    intent: 'create-method',
    methodId: created.id,
    message: `Método «${created.name}» creado. Ya aparece para los clientes.`,
  };
}

async function updateMethod(formData: FormData): Promise<AdminActionResult> {
  const path = `/api/admin/funds/methods/${idPath(formData.get('id'))}`;
  if (!formData.has('name')) {
    // The Activar / Desactivar button: only the state changes.
    const active = formData.get('active') === 'true';
    await api<ManualMethod>(path, { method: 'PATCH', body: { active } });
    return {
      ok: true,
      intent: 'update-method',
      message: active ? 'Método activado.' : 'Método desactivado.',
    };
  }
  const parsed = parseForm(MethodFormSchema, formData);
  if ('error' in parsed) return { ...parsed.error, intent: 'update-method' };
  const { sortOrder, ...fields } = parsed.data;
  await api<ManualMethod>(path, {
    method: 'PATCH',
    body: { ...fields, ...(sortOrder ? { sortOrder: Number(sortOrder) } : {}) },
  });
  return { ok: true, intent: 'update-method', message: 'Cambios guardados.' };
}

async function createBatch(formData: FormData): Promise<AdminActionResult> {
  const parsed = parseForm(BatchFormSchema, formData);
  if ('error' in parsed) return { ...parsed.error, intent: 'create-batch' };
  const { amount, count, expiresAt, note } = parsed.data;
  const created = await api<CreatedBatch>('/api/admin/vouchers', {
    body: {
      amount,
      count,
      ...(expiresAt ? { expiresAt } : {}),
      ...(note ? { note } : {}),
    },
  });
  return { ok: true, intent: 'create-batch', created };
}

async function search(formData: FormData): Promise<AdminActionResult> {
  const raw = formData.get('q');
  const query = typeof raw === 'string' ? raw.trim() : '';
  if (query.length < SEARCH_MIN_LENGTH)
    return {
      intent: 'search',
      query,
      fields: { q: `Escribe al menos ${SEARCH_MIN_LENGTH} letras del nombre o del correo.` },
    };
  const result = await api<{ items: AdminUser[] }>(
    `/api/admin/users?q=${encodeURIComponent(query)}`,
  );
  return { ok: true, intent: 'search', query, users: result.items };
}

async function adjust(formData: FormData): Promise<AdminActionResult> {
  const parsed = parseForm(AdjustFormSchema, formData);
  if ('error' in parsed) return { ...parsed.error, intent: 'adjust' };
  const { userId, idempotencyKey, amount, reason } = parsed.data;
  try {
    const adjusted = await postWithIdempotencyKey<AdjustResponse>(
      `/api/admin/users/${encodeURIComponent(userId)}/adjustments`,
      { amount, reason },
      idempotencyKey,
    );
    const session = getSessionState();
    if (session.status === 'authenticated' && session.user.id === userId) await reloadMe();
    return { ok: true, intent: 'adjust', adjusted };
  } catch (err) {
    if (err instanceof ApiError && err.code === 'INSUFFICIENT_FUNDS')
      return {
        intent: 'adjust',
        fields: {
          amount:
            'El saldo disponible del cliente no alcanza para ese descuento. Descuenta como máximo su saldo actual.',
        },
      };
    throw err;
  }
}

const HANDLERS: Record<AdminIntent, (formData: FormData) => Promise<AdminActionResult>> = {
  approve,
  reject,
  'create-method': createMethod,
  'update-method': updateMethod,
  'create-batch': createBatch,
  search,
  adjust,
};

/** The page's one clientAction: dispatches on the form's `intent` and maps API errors. */
export async function runAdminAction(formData: FormData): Promise<AdminActionResult> {
  const intent = formData.get('intent');
  if (!isIntent(intent)) return { intent: null, formError: 'Acción desconocida.' };
  try {
    return await HANDLERS[intent](formData);
  } catch (err) {
    return { ...apiFailure(err), intent };
  }
}

/** Searching and adjusting change none of the page's lists: no need to load them again. */
export function changesLists(formData: FormData | undefined): boolean {
  const intent = formData?.get('intent');
  return intent !== 'search' && intent !== 'adjust';
}
