// Mercado Pago Checkout Pro top-ups (docs/domain.md "Payment gateways"): a preference per top-up,
// charged in MERCADOPAGO_CURRENCY at the admin's exchange rate, credited in USD once the signed
// `payment` notification has been checked AND the payment read back from Mercado Pago's API.
//
// Plain `fetch` against the documented REST API, not the official `mercadopago` SDK: the SDK
// keeps its host in a static global (`AppConfig.BASE_URL`), so separate clients (the live API,
// the sandbox, a local fake per test) cannot each have their own, and tests could not point it
// at a fake without patching a module-wide constant. The two calls used here are small.
import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import { chargedIn as sharedChargedIn, parseRate } from '../../../../shared/fees';
import { formatAmount, parseAmount, type Cents } from '../../../../shared/money';
import type { MercadoPagoTopup } from '../../../../shared/schemas/payments';
import { pgErrorCode, type Db, type Tx } from '../../../db/client';
import { user as userTable } from '../../../db/schema/auth';
import { payment, paymentSettings, processedEvent } from '../../../db/schema/payments';
import type { Env } from '../../../env';
import { AppError } from '../../../lib/errors';
import type { Logger } from '../../../lib/logger';
import type { Mailer } from '../../../lib/mail';
import { mailAfterCommit } from '../../../lib/notify';
import { balances } from '../../ledger/ledger.service';
import type { MercadoPagoConfig } from '../gateway-config';
import { reverseTopup, settleTopup, type PaymentRow } from '../payments.service';
import { abandonTopup, gatewayTerms, quoteTopup, startGatewayTopup } from '../topup-terms';
import { mercadoPagoCreditedEmail } from './mercadopago.email';
import { manifestDataId, verifySignature } from './mercadopago.signature';

export type MercadoPagoDeps = {
  db: Db;
  env: Env;
  mailer: Mailer;
  logger: Logger;
};

export const NOT_AVAILABLE_MESSAGE = 'Mercado Pago no está disponible por ahora.';
const CREATE_FAILED_MESSAGE = 'No pudimos iniciar el pago con Mercado Pago. Inténtalo de nuevo.';
const BAD_SIGNATURE_MESSAGE = 'Firma del webhook no válida.';
const READ_FAILED_MESSAGE = 'No pudimos consultar el pago en Mercado Pago. Se reintentará.';
const REFUND_REASON = 'Reembolso en Mercado Pago';
const CHARGEBACK_REASON = 'Contracargo en Mercado Pago';

/** Calls to Mercado Pago give up after this long (the customer or Mercado Pago is waiting). */
const API_TIMEOUT_MS = 20_000;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The configuration, or 404 "not available" when Mercado Pago is not configured. */
export function requireMercadoPago(config: MercadoPagoConfig | null): MercadoPagoConfig {
  if (!config) throw new AppError('NOT_FOUND', NOT_AVAILABLE_MESSAGE);
  return config;
}

/**
 * Units of MERCADOPAGO_CURRENCY per US dollar (decimal text): the admin's rate in
 * payment_settings, else MERCADOPAGO_RATE (always "1" for USD); null when there is none (or
 * Mercado Pago is not configured): the method is then unavailable.
 */
export async function mercadoPagoRate(
  db: Db | Tx,
  env: { mercadopago: MercadoPagoConfig | null },
): Promise<string | null> {
  if (!env.mercadopago) return null;
  const [settings] = await db
    .select({ rate: paymentSettings.mercadopagoRate })
    .from(paymentSettings)
    .where(eq(paymentSettings.id, 1));
  const stored = settings?.rate?.trim();
  if (stored && parseRate(stored) !== null) return stored;
  const initial = env.mercadopago.initialRate?.trim();
  return initial && parseRate(initial) !== null ? initial : null;
}

/** What is charged for `usdCents` in `currency` at `rateMicros` (shared/fees.ts). */
export const chargedIn = sharedChargedIn;

/**
 * A JSON amount from Mercado Pago (10455.5 or "10455.50") as minor units, through its decimal
 * text: never float arithmetic. Null for anything that is not a plain non-negative decimal with
 * at most two places.
 */
export function decimalCents(value: unknown): Cents | null {
  if (typeof value !== 'number' && typeof value !== 'string') return null;
  if (typeof value === 'number' && !Number.isFinite(value)) return null;
  const cents = parseAmount(String(value));
  return cents !== null && cents >= 0n ? cents : null;
}

// ─── Mercado Pago's API ──────────────────────────────────────────────────────────────────────

const PreferenceAnswerSchema = z.looseObject({
  id: z.string().min(1),
  init_point: z.url(),
  sandbox_init_point: z.string().nullish(),
});

const IdSchema = z.union([z.number().int().nonnegative(), z.string().regex(/^\d{1,20}$/)]);

/** The fields of GET /v1/payments/{id} that Cometa reads. */
export const MercadoPagoPaymentSchema = z.looseObject({
  id: IdSchema,
  status: z.string().min(1),
  status_detail: z.string().nullish(),
  external_reference: z.string().nullish(),
  transaction_amount: z.union([z.number(), z.string()]),
  transaction_amount_refunded: z.union([z.number(), z.string()]).nullish(),
  currency_id: z.string().nullish(),
  date_approved: z.string().nullish(),
});
export type MercadoPagoPayment = z.infer<typeof MercadoPagoPaymentSchema>;

async function mpRequest(
  config: MercadoPagoConfig,
  method: 'GET' | 'POST',
  path: string,
  options: { body?: unknown; idempotencyKey?: string } = {},
): Promise<{ status: number; json: unknown }> {
  const headers: Record<string, string> = {
    Authorization: `Bearer ${config.accessToken}`,
    Accept: 'application/json',
  };
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';
  if (options.idempotencyKey) headers['X-Idempotency-Key'] = options.idempotencyKey;
  const res = await fetch(`${config.apiBase}${path}`, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
    signal: AbortSignal.timeout(API_TIMEOUT_MS),
  });
  const text = await res.text();
  let json: unknown = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = text;
  }
  return { status: res.status, json };
}

// ─── Starting a top-up ───────────────────────────────────────────────────────────────────────

/**
 * Starts a Mercado Pago top-up: the pending payment row (USD amount and fee, and what is charged
 * in MERCADOPAGO_CURRENCY at the current rate), then a Checkout Pro preference for exactly that
 * charge (idempotency key = our payment id). Nothing is credited here.
 */
export async function createTopup(
  deps: MercadoPagoDeps,
  customer: { id: string },
  amountText: string,
): Promise<MercadoPagoTopup> {
  const config = requireMercadoPago(deps.env.mercadopago);
  const rate = await mercadoPagoRate(deps.db, deps.env);
  const rateMicros = rate === null ? null : parseRate(rate);
  if (rate === null || rateMicros === null) throw new AppError('NOT_FOUND', NOT_AVAILABLE_MESSAGE);
  const terms = await gatewayTerms(deps.db, deps.env, 'mercadopago');
  const quote = quoteTopup('mercadopago', terms, amountText);
  const charged = chargedIn(config.currency, quote.total, rateMicros);
  const row = await startGatewayTopup(deps.db, {
    userId: customer.id,
    method: 'mercadopago',
    quote,
    charged: { amount: charged, currency: config.currency, rate },
  });
  const appUrl = deps.env.APP_URL;
  const returnUrl = `${appUrl}/addfunds?pago=mercadopago&id=${row.id}`;
  let preference: z.infer<typeof PreferenceAnswerSchema>;
  try {
    const answer = await mpRequest(config, 'POST', '/checkout/preferences', {
      idempotencyKey: row.id,
      body: {
        items: [
          {
            id: 'recarga',
            title: 'Recarga de saldo',
            quantity: 1,
            // Mercado Pago takes a JSON number; the decimal text of exact cents is exact.
            unit_price: Number(formatAmount(charged)),
            currency_id: config.currency,
          },
        ],
        external_reference: row.id,
        notification_url: `${appUrl}/api/webhooks/mercadopago`,
        back_urls: {
          success: returnUrl,
          pending: returnUrl,
          failure: `${appUrl}/addfunds?pago=cancelado`,
        },
        auto_return: 'approved',
      },
    });
    if (answer.status < 200 || answer.status >= 300)
      throw new Error(`POST /checkout/preferences answered ${answer.status}`);
    preference = PreferenceAnswerSchema.parse(answer.json);
  } catch (err) {
    deps.logger.error({ err, paymentId: row.id }, 'mercadopago: preference could not be created');
    // It never got a preference, so it can never be paid.
    await abandonTopup(deps.db, row.id);
    throw new AppError('INTERNAL', CREATE_FAILED_MESSAGE);
  }
  await deps.db
    .update(payment)
    .set({ providerRef: preference.id, checkoutUrl: preference.init_point, updatedAt: new Date() })
    .where(eq(payment.id, row.id));
  deps.logger.info(
    {
      paymentId: row.id,
      preferenceId: preference.id,
      charged: formatAmount(charged),
      currency: config.currency,
    },
    'mercadopago: preference created',
  );
  return { id: row.id, initPoint: preference.init_point };
}

// ─── Notifications ───────────────────────────────────────────────────────────────────────────

/** What Mercado Pago posts to notification_url (only documentation: the raw text is read). */
export const MercadoPagoNotificationSchema = z.looseObject({
  action: z.string().optional(),
  api_version: z.string().optional(),
  data: z.looseObject({ id: z.union([z.string(), z.number()]).optional() }).optional(),
  date_created: z.string().optional(),
  id: z.union([z.string(), z.number()]).optional(),
  live_mode: z.boolean().optional(),
  type: z.string().optional(),
  user_id: z.union([z.string(), z.number()]).optional(),
});

/** The query string Mercado Pago adds to notification_url. */
export const MercadoPagoNotificationQuerySchema = z.looseObject({
  'data.id': z
    .string()
    .max(200)
    .optional()
    .describe('Identificador del recurso notificado (el pago), parte de la firma.'),
  type: z.string().max(100).optional().describe('Tema del aviso: solo se procesa `payment`.'),
  topic: z.string().max(100).optional().describe('Tema del aviso (forma antigua de `type`).'),
});

function bodyOf(rawBody: string): { dataId: string | null; type: string | null } {
  try {
    const parsed = MercadoPagoNotificationSchema.safeParse(JSON.parse(rawBody));
    if (!parsed.success) return { dataId: null, type: null };
    const id = parsed.data.data?.id;
    return {
      dataId: id === undefined ? null : String(id),
      type: parsed.data.type ?? null,
    };
  } catch {
    return { dataId: null, type: null };
  }
}

/**
 * Verifies and handles one notification. 400 when the signature is missing or wrong (nothing
 * changes); anything signed but irrelevant is a success. The notification only says "look at
 * payment N": the payment is read from the API, and only that answer moves money. A failed read
 * throws (5xx) so Mercado Pago retries.
 */
export async function handleNotification(
  deps: MercadoPagoDeps,
  input: {
    rawBody: string;
    query: Record<string, string | undefined>;
    signature: string | undefined;
    requestId: string | undefined;
  },
): Promise<void> {
  const config = requireMercadoPago(deps.env.mercadopago);
  const body = bodyOf(input.rawBody);
  const dataId = manifestDataId(input.query['data.id'] ?? body.dataId);
  const requestId = input.requestId?.trim() || null;
  if (
    !verifySignature({ secret: config.webhookSecret, header: input.signature, dataId, requestId })
  ) {
    deps.logger.warn(
      { dataId, hasSignature: Boolean(input.signature) },
      'mercadopago: notification rejected (signature)',
    );
    throw new AppError('BAD_REQUEST', BAD_SIGNATURE_MESSAGE);
  }
  const topic = body.type ?? input.query.type ?? input.query.topic ?? null;
  if (topic !== 'payment') {
    deps.logger.info({ dataId, topic }, 'mercadopago: notification ignored (topic)');
    return;
  }
  if (!dataId || !/^\d{1,20}$/.test(dataId)) {
    deps.logger.warn({ dataId }, 'mercadopago: payment notification without a payment id; ignored');
    return;
  }

  let answer: { status: number; json: unknown };
  try {
    answer = await mpRequest(config, 'GET', `/v1/payments/${dataId}`);
  } catch (err) {
    deps.logger.error({ err, mpPaymentId: dataId }, 'mercadopago: payment read failed');
    throw new AppError('INTERNAL', READ_FAILED_MESSAGE);
  }
  if (answer.status === 404) {
    deps.logger.warn(
      { mpPaymentId: dataId },
      'mercadopago: notified payment does not exist; ignored',
    );
    return;
  }
  const parsed = MercadoPagoPaymentSchema.safeParse(answer.json);
  if (answer.status !== 200 || !parsed.success) {
    deps.logger.error(
      { mpPaymentId: dataId, status: answer.status },
      'mercadopago: payment read answered unexpectedly',
    );
    throw new AppError('INTERNAL', READ_FAILED_MESSAGE);
  }
  await applyPayment(deps, parsed.data);
}

type Outcome =
  | { kind: 'replay' }
  | { kind: 'credited'; payment: PaymentRow }
  | { kind: 'held'; payment: PaymentRow }
  | { kind: 'mismatch'; payment: PaymentRow }
  | { kind: 'paid-again'; payment: PaymentRow }
  | { kind: 'debited'; debited: bigint; flagged: boolean; payment: PaymentRow }
  | { kind: 'status'; payment: PaymentRow }
  | { kind: 'nothing'; payment: PaymentRow };

/**
 * Brings our payment in line with Mercado Pago's payment as just read. One processed_event row
 * per (payment, status, refunded total), in the same transaction as the effect: a concurrent or
 * repeated notification finds it taken and changes nothing.
 */
async function applyPayment(deps: MercadoPagoDeps, mp: MercadoPagoPayment): Promise<void> {
  const mpId = String(mp.id);
  const log = deps.logger.child({ mpPaymentId: mpId, mpStatus: mp.status });
  const ref = mp.external_reference ?? '';
  if (!UUID.test(ref)) {
    log.warn({ externalReference: ref }, 'mercadopago: payment is not one of ours; ignored');
    return;
  }
  const [row] = await deps.db
    .select()
    .from(payment)
    .where(and(eq(payment.id, ref), eq(payment.method, 'mercadopago')));
  if (!row) {
    log.warn({ externalReference: ref }, 'mercadopago: payment is not one of ours; ignored');
    return;
  }
  const paid = decimalCents(mp.transaction_amount);
  const refunded = decimalCents(mp.transaction_amount_refunded ?? 0);
  if (paid === null || refunded === null) {
    log.error(
      {
        paymentId: row.id,
        amount: mp.transaction_amount,
        refunded: mp.transaction_amount_refunded,
      },
      'mercadopago: unreadable amounts; ignored',
    );
    return;
  }
  const eventId = `mercadopago:${mpId}:${mp.status}:${refunded}`;

  let outcome: Outcome;
  try {
    outcome = await deps.db.transaction(async (tx): Promise<Outcome> => {
      const marked = await tx
        .insert(processedEvent)
        .values({ provider: 'mercadopago', eventId, paymentId: row.id })
        .onConflictDoNothing()
        .returning({ eventId: processedEvent.eventId });
      if (marked.length === 0) return { kind: 'replay' };
      return applyInTx(tx, row.id, mp, mpId, paid, refunded);
    });
  } catch (err) {
    if (pgErrorCode(err) !== '23505') throw err;
    outcome = { kind: 'replay' };
  }

  const context = { paymentId: row.id, eventId };
  switch (outcome.kind) {
    case 'replay':
      log.info(context, 'mercadopago: state already processed');
      return;
    case 'mismatch':
      log.error(
        {
          ...context,
          expected: `${formatAmount(row.chargedAmount ?? 0n)} ${row.chargedCurrency}`,
          paid: `${String(mp.transaction_amount)} ${mp.currency_id}`,
        },
        'mercadopago: paid amount or currency differs from the payment; NOT credited, review it',
      );
      return;
    case 'paid-again':
      log.error(
        { ...context, status: outcome.payment.status, credited: outcome.payment.providerPaymentId },
        'mercadopago: another approved payment for a top-up no longer pending; NOT credited, refund it in Mercado Pago',
      );
      return;
    case 'credited':
      log.info(
        { ...context, userId: row.userId, amount: row.amount.toString() },
        'mercadopago: payment credited',
      );
      notifyCredited(deps, outcome.payment);
      return;
    case 'held':
      log.info(context, 'mercadopago: payment held for review');
      return;
    case 'debited':
      log.warn(
        { ...context, debited: outcome.debited.toString(), flagged: outcome.flagged },
        'mercadopago: top-up reversed',
      );
      return;
    case 'status':
      log.info(context, 'mercadopago: provider status recorded');
      return;
    case 'nothing':
      log.info(context, 'mercadopago: nothing to change');
  }
}

async function applyInTx(
  tx: Tx,
  paymentId: string,
  mp: MercadoPagoPayment,
  mpId: string,
  paid: Cents,
  refunded: Cents,
): Promise<Outcome> {
  const [current] = await tx.select().from(payment).where(eq(payment.id, paymentId)).for('update');
  if (!current) throw new Error(`payment ${paymentId} vanished`);
  // The Mercado Pago payment that was credited (or held) for this top-up, if it is this one.
  const isCredited = current.providerPaymentId === mpId && current.status !== 'pending';

  switch (mp.status) {
    case 'approved': {
      if (current.status === 'pending') {
        const matches =
          mp.currency_id === current.chargedCurrency && paid === current.chargedAmount;
        if (!matches) {
          await recordStatus(tx, current, mpId, mp.status);
          return { kind: 'mismatch', payment: current };
        }
        const settled = await settleTopup(tx, current.id, {
          providerPaymentId: mpId,
          providerStatus: mp.status,
        });
        if (settled.kind === 'not-pending') return { kind: 'nothing', payment: settled.payment };
        // Approved and already partly refunded when first read: credit, then debit the refund.
        if (refunded > 0n && settled.kind === 'credited')
          return reverse(tx, settled.payment, mpId, 'refunded', paid, refunded);
        return settled;
      }
      if (!isCredited) return { kind: 'paid-again', payment: current };
      await recordStatus(tx, current, mpId, mp.status);
      // A partial refund leaves the payment approved, with transaction_amount_refunded.
      if (refunded > 0n) return reverse(tx, current, mpId, 'refunded', paid, refunded);
      return { kind: 'nothing', payment: current };
    }
    case 'refunded':
    case 'charged_back': {
      if (!isCredited) {
        // Never credited: no money to take back; the status is kept for finance.
        const recorded = await recordStatus(tx, current, mpId, mp.status);
        return { kind: recorded ? 'status' : 'nothing', payment: current };
      }
      await recordStatus(tx, current, mpId, mp.status);
      return reverse(tx, current, mpId, mp.status, paid, refunded);
    }
    default: {
      // pending, in_process, authorized, in_mediation, rejected, cancelled: no money moves; a
      // rejected or cancelled attempt leaves the top-up pending (the customer may pay again
      // with the same preference).
      const recorded = await recordStatus(tx, current, mpId, mp.status);
      return { kind: recorded ? 'status' : 'nothing', payment: current };
    }
  }
}

/**
 * Stores Mercado Pago's status on a top-up still pending (the latest attempt), or on the one
 * credited from this same Mercado Pago payment. False when it is about another attempt.
 */
async function recordStatus(
  tx: Tx,
  current: PaymentRow,
  mpId: string,
  status: string,
): Promise<boolean> {
  if (current.status === 'pending') {
    await tx
      .update(payment)
      .set({ providerPaymentId: mpId, providerStatus: status, updatedAt: new Date() })
      .where(eq(payment.id, current.id));
    return true;
  }
  if (current.providerPaymentId !== mpId) return false;
  await tx
    .update(payment)
    .set({ providerStatus: status, updatedAt: new Date() })
    .where(eq(payment.id, current.id));
  return true;
}

/**
 * Debits a refund or chargeback of the credited Mercado Pago payment: everything for a
 * chargeback or a full refund; for a partial refund, the USD share of what was refunded so far
 * (floor(credited × refunded / paid)) less what was already debited.
 */
async function reverse(
  tx: Tx,
  current: PaymentRow,
  mpId: string,
  status: 'refunded' | 'charged_back',
  paid: Cents,
  refunded: Cents,
): Promise<Outcome> {
  const full = status === 'charged_back' || refunded >= paid || paid === 0n;
  let amount: bigint | null = null;
  if (!full) {
    const share = (current.amount * refunded) / paid;
    amount = share - current.reversedAmount;
    if (amount <= 0n) return { kind: 'nothing', payment: current };
  }
  const result = await reverseTopup(tx, current.id, {
    amount,
    key: `mp:${mpId}:${status}:${refunded}`,
    reason: status === 'charged_back' ? CHARGEBACK_REASON : REFUND_REASON,
  });
  switch (result.kind) {
    case 'debited':
      return {
        kind: 'debited',
        debited: result.debited,
        flagged: result.flagged,
        payment: result.payment,
      };
    case 'cancelled':
      return { kind: 'status', payment: result.payment };
    case 'nothing':
      return { kind: 'nothing', payment: result.payment };
  }
}

/** E-mails the customer once the credit has committed; a failure is logged and changes nothing. */
function notifyCredited(deps: MercadoPagoDeps, credited: PaymentRow): void {
  mailAfterCommit(deps, 'mercadopago: payment credited', { paymentId: credited.id }, async () => {
    const [customer] = await deps.db
      .select({ email: userTable.email, name: userTable.name })
      .from(userTable)
      .where(eq(userTable.id, credited.userId));
    if (!customer) throw new Error(`user ${credited.userId} not found`);
    const { available } = await balances(deps.db, credited.userId);
    return mercadoPagoCreditedEmail({
      appName: deps.env.APP_NAME,
      appUrl: deps.env.APP_URL,
      to: customer.email,
      name: customer.name,
      amount: credited.amount,
      charged:
        credited.chargedAmount !== null && credited.chargedCurrency
          ? { amount: credited.chargedAmount, currency: credited.chargedCurrency }
          : null,
      balance: available,
    });
  });
}
