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
import {
  CryptoTopupSchema,
  MercadoPagoTopupSchema,
  PaymentMethodListSchema,
  PaypalTopupSchema,
  ReceiptListSchema,
  TopupResultSchema,
  type TopupResult,
} from '../../../shared/schemas/payments';
import { CardCheckoutSchema } from '../../../shared/schemas/funds';
import type { GatewayMethod } from '../../../shared/schemas/wallet';
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

/** GET /api/payment-methods: every enabled way to top up, with its fee and limits. */
export function getPaymentMethods() {
  return api.get('/api/payment-methods', PaymentMethodListSchema).then((r) => r.items);
}

/** The customer's numbered receipts (GET /api/receipts). */
export function getReceipts() {
  return api.get('/api/receipts', ReceiptListSchema);
}

/** Where the customer's browser goes to read a receipt's PDF. */
export function receiptPdfUrl(id: string): string {
  return `/api/receipts/${encodeURIComponent(id)}/pdf`;
}

/**
 * Starts a top-up of `amount` (the API's "25.50") through a gateway and resolves with the
 * provider's page to send the customer to.
 */
export async function startGatewayTopup(method: GatewayMethod, amount: string): Promise<string> {
  switch (method) {
    case 'stripe':
      return (await api.post('/api/funds/stripe/checkout', CardCheckoutSchema, { amount })).url;
    case 'paypal':
      return (await api.post('/api/payments/paypal', PaypalTopupSchema, { amount })).approveUrl;
    case 'crypto':
      return (await api.post('/api/payments/crypto', CryptoTopupSchema, { amount })).invoiceUrl;
    case 'mercadopago':
      return (await api.post('/api/payments/mercadopago', MercadoPagoTopupSchema, { amount }))
        .initPoint;
  }
}

/** Back from PayPal: capture the approved order (idempotent on the server). */
export function capturePaypal(id: string): Promise<TopupResult> {
  return api.post(`/api/payments/paypal/${encodeURIComponent(id)}/capture`, TopupResultSchema);
}

/** One of the customer's top-ups as it stands now, with the balance. */
export function getTopup(id: string): Promise<TopupResult> {
  return api.get(`/api/payments/${encodeURIComponent(id)}`, TopupResultSchema);
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
