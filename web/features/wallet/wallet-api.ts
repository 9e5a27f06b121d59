import {
  FundingMethodsSchema,
  type FundingMethods,
  type PublicMethodDto,
} from '../../../shared/schemas/funds';
import {
  MovementsPageSchema,
  PaymentDtoSchema,
  PaymentListSchema,
  WalletDtoSchema,
  type PaymentDto,
} from '../../../shared/schemas/wallet';
import { ApiError, api, readErrorAnswer } from '../../lib/api';

export type ManualMethodDto = PublicMethodDto;
export type { FundingMethods };

export function getWallet() {
  return api.get('/api/wallet', WalletDtoSchema);
}

export function getMovements(cursor?: string | null) {
  return api.get(
    `/api/wallet/movements${cursor ? `?cursor=${encodeURIComponent(cursor)}` : ''}`,
    MovementsPageSchema,
  );
}

export function getTopups() {
  return api.get('/api/wallet/topups', PaymentListSchema);
}

export function getFundingMethods() {
  return api.get('/api/funds/methods', FundingMethodsSchema);
}

const REGISTER_FAILED = 'No pudimos registrar tu pago.';

/** A manual top-up with an optional receipt: multipart, so `api()` (JSON) is not used. */
export async function declareManualTopup(form: FormData): Promise<PaymentDto> {
  const response = await fetch('/api/funds/requests', {
    method: 'POST',
    body: form,
    credentials: 'same-origin',
    signal: AbortSignal.timeout(60_000),
  });
  const body: unknown = await response.json().catch(() => ({}));
  if (!response.ok) {
    const error = readErrorAnswer(body);
    throw new ApiError(
      response.status,
      error.code ?? `HTTP_${response.status}`,
      error.message ?? REGISTER_FAILED,
      error.fields ?? {},
    );
  }
  const payment = PaymentDtoSchema.safeParse(body);
  if (!payment.success) {
    console.error('Respuesta inesperada de /api/funds/requests:', payment.error.issues);
    throw new ApiError(response.status, 'INVALID_RESPONSE', REGISTER_FAILED);
  }
  return payment.data;
}
