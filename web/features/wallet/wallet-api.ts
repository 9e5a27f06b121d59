import type { MovementsPage, PaymentDto, WalletDto } from '../../../shared/schemas/wallet';
import { ApiError, api } from '../../lib/api';

export type ManualMethodDto = {
  id: string;
  name: string;
  instructions: string;
  minAmount: string;
  maxAmount: string;
};
export type FundingMethods = {
  card: { minAmount: string; maxAmount: string } | null;
  manual: ManualMethodDto[];
  voucher: boolean;
};

export function getWallet() {
  return api<WalletDto>('/api/wallet');
}

export function getMovements(cursor?: string | null) {
  return api<MovementsPage>(
    `/api/wallet/movements${cursor ? `?cursor=${encodeURIComponent(cursor)}` : ''}`,
  );
}

export function getTopups() {
  return api<{ items: PaymentDto[] }>('/api/wallet/topups');
}

export function getFundingMethods() {
  return api<FundingMethods>('/api/funds/methods');
}

/** A manual top-up with an optional receipt: multipart, so `api()` (JSON) is not used. */
export async function declareManualTopup(form: FormData): Promise<PaymentDto> {
  const response = await fetch('/api/funds/requests', {
    method: 'POST',
    body: form,
    credentials: 'same-origin',
    signal: AbortSignal.timeout(60_000),
  });
  const body = (await response.json().catch(() => ({}))) as PaymentDto & {
    code?: string;
    message?: string;
    fields?: Record<string, string>;
  };
  if (!response.ok) {
    throw new ApiError(
      response.status,
      body.code ?? `HTTP_${response.status}`,
      body.message ?? 'No pudimos registrar tu pago.',
      body.fields ?? {},
    );
  }
  return body;
}
