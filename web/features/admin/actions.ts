import { z } from 'zod';
import {
  AdjustmentResultSchema,
  CUSTOMER_SEARCH_MIN_LENGTH,
  CustomerListSchema,
} from '../../../shared/schemas/admin';
import {
  AdminRequestListSchema,
  ApproveResultSchema,
  CreateMethodSchema,
  MethodDtoSchema,
  MethodListSchema,
  RejectResultSchema,
  RejectSchema,
  UpdateMethodSchema,
} from '../../../shared/schemas/funds';
import {
  CreateBatchSchema,
  CreatedBatchDtoSchema,
  MAX_BATCH_SIZE,
  MAX_NOTE_LENGTH,
  VoucherBatchListSchema,
} from '../../../shared/schemas/vouchers';
import { amountForApi, amountInputErrors, integerForApi } from '../../../shared/number-input';
import { AdjustmentSchema, SignedAmountInputSchema } from '../../../shared/schemas/wallet';
import {
  AccountFlagListSchema,
  AdminPaymentListSchema,
  AdminPaymentResultSchema,
  GatewayMethodParamSchema,
  GatewaySettingDtoSchema,
  GatewaySettingListSchema,
  PaymentSettingsDtoSchema,
  UpdateGatewaySettingSchema,
  UpdatePaymentSettingsSchema,
} from '../../../shared/schemas/payments';
import { decimalForApi } from './decimal-input';
import { api, ApiError } from '../../lib/api';
import { apiFailure, formToObject, parseForm, parseValues } from '../../lib/form-data';
import { settle, type Loaded } from '../../lib/loaded';
import { getSessionState, reloadMe } from '../../lib/session';
import { postWithIdempotencyKey } from './admin-api';
import {
  ADMIN_INTENTS,
  type AdminActionResult,
  type AdminIntent,
  type AccountFlag,
  type GatewaySetting,
  type HeldTopup,
  type ManualMethod,
  type PaymentSettings,
  type PendingRequest,
  type VoucherBatch,
} from './types';

export { MAX_BATCH_SIZE, MAX_NOTE_LENGTH };
export const SEARCH_MIN_LENGTH = CUSTOMER_SEARCH_MIN_LENGTH;

export type AdminPaymentsData = {
  requests: Loaded<PendingRequest[]>;
  held: Loaded<HeldTopup[]>;
  flags: Loaded<AccountFlag[]>;
  gateways: Loaded<GatewaySetting[]>;
  settings: Loaded<PaymentSettings>;
  methods: Loaded<ManualMethod[]>;
  batches: Loaded<VoucherBatch[]>;
};

/** The page's lists, fetched in parallel; each can fail on its own. */
export async function loadAdminPayments(): Promise<AdminPaymentsData> {
  const [requests, held, flags, gateways, settings, methods, batches] = await Promise.all([
    settle(
      api
        .get('/api/admin/funds/requests?status=pending', AdminRequestListSchema)
        .then((r) => r.items),
    ),
    settle(api.get('/api/admin/payments/review', AdminPaymentListSchema).then((r) => r.items)),
    settle(api.get('/api/admin/account-flags', AccountFlagListSchema).then((r) => r.items)),
    settle(api.get('/api/admin/payment-methods', GatewaySettingListSchema).then((r) => r.items)),
    settle(api.get('/api/admin/payment-settings', PaymentSettingsDtoSchema)),
    settle(api.get('/api/admin/funds/methods', MethodListSchema).then((r) => r.items)),
    settle(api.get('/api/admin/vouchers', VoucherBatchListSchema).then((r) => r.items)),
  ]);
  return { requests, held, flags, gateways, settings, methods, batches };
}

/**
 * A whole-number form input as the API takes it: a JSON number («1.000» is one thousand).
 * Anything else is left as typed, so the API's schema refuses it with its own message; empty is
 * "not given".
 */
function formInteger(value: string | undefined): number | string | undefined {
  const text = value?.trim() ?? '';
  if (text === '') return undefined;
  return integerForApi(text);
}

/** A typed amount («25,50», «1.234,50») as the API takes it ("25.50"); empty stays empty. */
function formAmount(value: string | undefined): string | undefined {
  return value === undefined ? undefined : amountForApi(value);
}

/** The method form's values, shaped as the API takes them (amounts read, the sort order a number). */
function methodValues(formData: FormData) {
  const { name, instructions, minAmount, maxAmount, sortOrder, feePercent, feeFixed } =
    formToObject(formData);
  return {
    name,
    instructions,
    minAmount: formAmount(minAmount),
    maxAmount: formAmount(maxAmount),
    sortOrder: formInteger(sortOrder),
    // Empty: no fee on a new method, unchanged on an edit.
    feePercent: feePercent?.trim() ? decimalForApi(feePercent) : undefined,
    feeFixed: feeFixed?.trim() ? formAmount(feeFixed) : undefined,
  };
}

/** The batch form's values, shaped as the API takes them (the amount read, the count a number). */
function batchValues(formData: FormData) {
  const { amount, count, expiresAt, note } = formToObject(formData);
  return { amount: formAmount(amount), count: formInteger(count), expiresAt, note };
}

/**
 * The form checked with the API's schema, with the precise message of an amount typed in a way
 * that cannot be read («1.500»: thousands or decimals?) in place of the API's.
 */
function checkTyped<T extends z.ZodType>(
  schema: T,
  values: unknown,
  formData: FormData,
  amountKeys: readonly string[],
): { data: z.infer<T> } | { error: { fields: Record<string, string> } } {
  const typed = amountInputErrors(formToObject(formData), amountKeys);
  const parsed = parseValues(schema, values);
  if (!('error' in parsed) && Object.keys(typed).length === 0) return parsed;
  const fields = 'error' in parsed ? (parsed.error.fields ?? {}) : {};
  return { error: { fields: { ...fields, ...typed } } };
}

const METHOD_AMOUNTS = ['minAmount', 'maxAmount'] as const;
const MANUAL_METHOD_AMOUNTS = [...METHOD_AMOUNTS, 'feeFixed'] as const;

const AdjustFormSchema = AdjustmentSchema.extend({
  amount: SignedAmountInputSchema,
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
  const result = await api.post(
    `/api/admin/funds/requests/${idPath(formData.get('id'))}/approve`,
    ApproveResultSchema,
  );
  return { ok: true, intent: 'approve', balance: result.balance };
}

async function reject(formData: FormData): Promise<AdminActionResult> {
  const parsed = parseForm(RejectSchema, formData);
  if ('error' in parsed) return { ...parsed.error, intent: 'reject' };
  await api.post(
    `/api/admin/funds/requests/${idPath(formData.get('id'))}/reject`,
    RejectResultSchema,
    { reason: parsed.data.reason },
  );
  return { ok: true, intent: 'reject' };
}

async function createMethod(formData: FormData): Promise<AdminActionResult> {
  const parsed = checkTyped(
    CreateMethodSchema,
    methodValues(formData),
    formData,
    MANUAL_METHOD_AMOUNTS,
  );
  if ('error' in parsed) return { ...parsed.error, intent: 'create-method' };
  const created = await api.post('/api/admin/funds/methods', MethodDtoSchema, {
    ...parsed.data,
    active: true,
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
    await api.patch(path, MethodDtoSchema, { active });
    return {
      ok: true,
      intent: 'update-method',
      message: active ? 'Método activado.' : 'Método desactivado.',
    };
  }
  const parsed = checkTyped(
    UpdateMethodSchema,
    methodValues(formData),
    formData,
    MANUAL_METHOD_AMOUNTS,
  );
  if ('error' in parsed) return { ...parsed.error, intent: 'update-method' };
  await api.patch(path, MethodDtoSchema, parsed.data);
  return { ok: true, intent: 'update-method', message: 'Cambios guardados.' };
}

async function createBatch(formData: FormData): Promise<AdminActionResult> {
  const parsed = checkTyped(CreateBatchSchema, batchValues(formData), formData, ['amount']);
  if ('error' in parsed) return { ...parsed.error, intent: 'create-batch' };
  const created = await api.post('/api/admin/vouchers', CreatedBatchDtoSchema, parsed.data);
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
  const result = await api.get(
    `/api/admin/users?q=${encodeURIComponent(query)}`,
    CustomerListSchema,
  );
  return { ok: true, intent: 'search', query, users: result.items };
}

async function adjust(formData: FormData): Promise<AdminActionResult> {
  const parsed = parseForm(AdjustFormSchema, formData);
  if ('error' in parsed) return { ...parsed.error, intent: 'adjust' };
  const { userId, idempotencyKey, amount, reason } = parsed.data;
  try {
    const adjusted = await postWithIdempotencyKey(
      `/api/admin/users/${encodeURIComponent(userId)}/adjustments`,
      AdjustmentResultSchema,
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
            'El saldo disponible del cliente no alcanza para ese descuento. Descuenta como máximo su saldo actual (más su límite de crédito, si tiene).',
        },
      };
    throw err;
  }
}

async function approveTopup(formData: FormData): Promise<AdminActionResult> {
  const result = await api.post(
    `/api/admin/payments/${idPath(formData.get('id'))}/approve`,
    AdminPaymentResultSchema,
  );
  return { ok: true, intent: 'approve-topup', balance: result.balance };
}

async function rejectTopup(formData: FormData): Promise<AdminActionResult> {
  const parsed = parseForm(RejectSchema, formData);
  if ('error' in parsed) return { ...parsed.error, intent: 'reject-topup' };
  await api.post(
    `/api/admin/payments/${idPath(formData.get('id'))}/reject`,
    AdminPaymentResultSchema,
    { reason: parsed.data.reason },
  );
  return { ok: true, intent: 'reject-topup' };
}

async function clearFlag(formData: FormData): Promise<AdminActionResult> {
  // The answer is not read: the list is loaded again.
  await api(`/api/admin/account-flags/${idPath(formData.get('id'))}/clear`, { method: 'POST' });
  return { ok: true, intent: 'clear-flag' };
}

/** The fee, fixed fee and limits of one automatic method. */
async function updateGateway(formData: FormData): Promise<AdminActionResult> {
  const method = GatewayMethodParamSchema.safeParse({ method: formData.get('method') });
  if (!method.success) return { intent: 'update-gateway', formError: 'Método desconocido.' };
  const { feePercent, feeFixed, minAmount, maxAmount } = formToObject(formData);
  const values = {
    feePercent: feePercent === undefined ? undefined : decimalForApi(feePercent),
    feeFixed: formAmount(feeFixed),
    minAmount: formAmount(minAmount),
    maxAmount: formAmount(maxAmount),
  };
  const parsed = checkTyped(UpdateGatewaySettingSchema, values, formData, [
    'feeFixed',
    ...METHOD_AMOUNTS,
  ]);
  if ('error' in parsed) return { ...parsed.error, intent: 'update-gateway' };
  await api.patch(
    `/api/admin/payment-methods/${encodeURIComponent(method.data.method)}`,
    GatewaySettingDtoSchema,
    parsed.data,
  );
  return { ok: true, intent: 'update-gateway', message: 'Cambios guardados.' };
}

/** The fraud hold, Mercado Pago's rate and the shop's details on receipts. */
async function updateSettings(formData: FormData): Promise<AdminActionResult> {
  const { holdThreshold, mercadopagoRate, shopName, shopTaxId, shopAddress } =
    formToObject(formData);
  const threshold = holdThreshold?.trim() ?? '';
  const rate = mercadopagoRate?.trim() ?? '';
  const values = {
    // Empty: no hold.
    holdThreshold:
      holdThreshold === undefined ? undefined : threshold === '' ? null : formAmount(threshold),
    mercadopagoRate: rate === '' ? undefined : decimalForApi(rate),
    shopName,
    shopTaxId,
    shopAddress,
  };
  const parsed = checkTyped(UpdatePaymentSettingsSchema, values, formData, ['holdThreshold']);
  if ('error' in parsed) return { ...parsed.error, intent: 'update-settings' };
  await api.patch('/api/admin/payment-settings', PaymentSettingsDtoSchema, parsed.data);
  return { ok: true, intent: 'update-settings', message: 'Ajustes guardados.' };
}

const HANDLERS: Record<AdminIntent, (formData: FormData) => Promise<AdminActionResult>> = {
  approve,
  reject,
  'create-method': createMethod,
  'update-method': updateMethod,
  'create-batch': createBatch,
  search,
  adjust,
  'approve-topup': approveTopup,
  'reject-topup': rejectTopup,
  'clear-flag': clearFlag,
  'update-gateway': updateGateway,
  'update-settings': updateSettings,
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
