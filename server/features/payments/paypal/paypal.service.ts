// PayPal Checkout (Orders v2) top-ups (docs/domain.md "Payment gateways"): the order is created
// on the server for amount + fee, the customer approves it on PayPal, and Cometa captures it when
// the customer comes back (POST /api/payments/paypal/:id/capture), when PayPal says it was
// approved (CHECKOUT.ORDER.APPROVED → the `paypal-capture` job), or learns the capture's outcome
// from PAYMENT.CAPTURE.* webhooks. Whichever comes first credits; the others find the payment no
// longer pending. Every webhook is checked with PayPal's verify-webhook-signature call first.
import { and, eq, or } from 'drizzle-orm';
import { z } from 'zod';
import { formatAmount, parseAmount } from '../../../../shared/money';
import type { TopupResult } from '../../../../shared/schemas/payments';
import { pgErrorCode, type Db, type Tx } from '../../../db/client';
import { user as userTable } from '../../../db/schema/auth';
import { payment, processedEvent } from '../../../db/schema/payments';
import type { Env } from '../../../env';
import { sendInTx, type JobQueue } from '../../../jobs/queue';
import { AppError } from '../../../lib/errors';
import type { Logger } from '../../../lib/logger';
import type { Mailer } from '../../../lib/mail';
import { mailAfterCommit } from '../../../lib/notify';
import { balances } from '../../ledger/ledger.service';
import type { PaypalConfig } from '../gateway-config';
import {
  reverseTopup,
  settleTopup,
  toPaymentDto,
  type PaymentRow,
  type ReverseOutcome,
  type SettleOutcome,
} from '../payments.service';
import { abandonTopup, gatewayTerms, quoteTopup, startGatewayTopup } from '../topup-terms';
import {
  CaptureSchema,
  OrderSchema,
  PaypalApiError,
  approvalLink,
  captureOrder,
  createOrder,
  firstCapture,
  getOrder,
  verifyWebhookSignature,
  type PaypalCapture,
  type PaypalOrder,
} from './paypal.api';
import { paypalCreditedEmail, paypalReversedEmail } from './paypal.email';

export type PaypalDeps = {
  db: Db;
  env: Env;
  mailer: Mailer;
  logger: Logger;
  jobs: JobQueue;
};

export const PAYPAL_NOT_AVAILABLE = 'El pago con PayPal no está disponible.';
const CREATE_FAILED = 'No pudimos iniciar el pago con PayPal. Inténtalo de nuevo.';
const CAPTURE_FAILED =
  'No pudimos confirmar el pago con PayPal. Inténtalo de nuevo en unos minutos.';
export const NOT_APPROVED = 'Todavía no aprobaste el pago en PayPal.';
const INSTRUMENT_DECLINED =
  'PayPal no pudo cobrar con el medio de pago que elegiste. Vuelve a intentarlo con otro.';
export const DECLINED_REASON = 'PayPal rechazó el pago. No se hizo ningún cargo.';
const BAD_SIGNATURE = 'Firma del webhook no válida.';
const WEBHOOKS_OFF = 'Los avisos de PayPal no están configurados en esta tienda.';
const REFUND_REASON = 'Reembolso en PayPal';
const REVERSAL_REASON = 'Pago revertido en PayPal (contracargo)';

/** The configuration, or 404 "not available" when PayPal is not configured. */
export function requirePaypal(env: Env): PaypalConfig {
  if (!env.paypal) throw new AppError('NOT_FOUND', PAYPAL_NOT_AVAILABLE);
  return env.paypal;
}

/**
 * What PayPal posts to the webhook, as its API documents it. Only documentation for the route:
 * the handler reads the raw text, because PayPal checks the signature against the exact bytes.
 */
export const PaypalEventSchema = z.looseObject({
  id: z.string().min(1).max(200),
  event_type: z.string().min(1).max(200),
  resource: z.looseObject({}),
});

// ─── Starting a top-up ────────────────────────────────────────────────────────────────────────

/**
 * Starts a PayPal top-up: the pending payment row (amount and fee) first, then an order for
 * amount + fee at PayPal (PayPal-Request-Id `topup-<paymentId>`), whose id and approval page are
 * stored on the payment. Nothing is credited here.
 */
export async function createPaypalTopup(
  deps: PaypalDeps,
  customer: { id: string },
  amount: string,
): Promise<{ id: string; approveUrl: string }> {
  const config = requirePaypal(deps.env);
  const terms = await gatewayTerms(deps.db, deps.env, 'paypal');
  const quote = quoteTopup('paypal', terms, amount);
  const row = await startGatewayTopup(deps.db, {
    userId: customer.id,
    method: 'paypal',
    quote,
  });
  let order: PaypalOrder;
  let approveUrl: string | null;
  try {
    order = await createOrder(config, {
      paymentId: row.id,
      total: formatAmount(quote.total),
      description: 'Recarga de saldo',
      returnUrl: `${deps.env.APP_URL}/addfunds?pago=paypal&id=${row.id}`,
      cancelUrl: `${deps.env.APP_URL}/addfunds?pago=cancelado`,
      brandName: deps.env.APP_NAME,
    });
    approveUrl = approvalLink(order);
    if (!approveUrl) throw new Error(`order ${order.id} has no payer-action link`);
  } catch (err) {
    deps.logger.error({ err, paymentId: row.id }, 'paypal: order could not be created');
    // It never got an order, so it can never be paid.
    await abandonTopup(deps.db, row.id);
    throw new AppError('INTERNAL', CREATE_FAILED);
  }
  await deps.db
    .update(payment)
    .set({ providerRef: order.id, checkoutUrl: approveUrl, updatedAt: new Date() })
    .where(eq(payment.id, row.id));
  deps.logger.info(
    { paymentId: row.id, orderId: order.id, total: formatAmount(quote.total) },
    'paypal: order created',
  );
  return { id: row.id, approveUrl };
}

// ─── Capturing ────────────────────────────────────────────────────────────────────────────────

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

async function paymentRow(db: Db | Tx, id: string): Promise<PaymentRow> {
  const [row] = await db.select().from(payment).where(eq(payment.id, id));
  if (!row) throw new AppError('NOT_FOUND', 'El pago no existe.');
  return row;
}

/** The top-up as it stands and the customer's available balance. */
async function topupResult(db: Db, row: PaymentRow): Promise<TopupResult> {
  const { available } = await balances(db, row.userId);
  return { payment: await toPaymentDto(db, row), balance: formatAmount(available) };
}

/**
 * The customer's return from PayPal (or the web app asking again): captures the order of the
 * customer's PayPal payment `idOrOrder` (our payment id, or PayPal's order id from `token=`) and
 * answers the top-up as it stands. A payment no longer pending is answered without calling
 * PayPal. Someone else's payment is 404.
 */
export async function capturePaypalTopup(
  deps: PaypalDeps,
  customer: { id: string },
  idOrOrder: string,
): Promise<TopupResult> {
  const config = requirePaypal(deps.env);
  const [row] = await deps.db
    .select()
    .from(payment)
    .where(
      and(
        eq(payment.method, 'paypal'),
        eq(payment.userId, customer.id),
        UUID.test(idOrOrder)
          ? or(eq(payment.id, idOrOrder), eq(payment.providerRef, idOrOrder))
          : eq(payment.providerRef, idOrOrder),
      ),
    )
    .limit(1);
  if (!row) throw new AppError('NOT_FOUND', 'El pago no existe.');
  const after = await captureAndSettle(deps, config, row);
  return topupResult(deps.db, after);
}

/**
 * The `paypal-capture` job (queued by CHECKOUT.ORDER.APPROVED): the same capture as the
 * customer's return, for a customer who approved and never came back. Throws to be retried.
 */
export async function runPaypalCapture(deps: PaypalDeps, paymentId: string): Promise<void> {
  const config = deps.env.paypal;
  if (!config) {
    deps.logger.warn({ paymentId }, 'paypal: capture job without PayPal configured; dropped');
    return;
  }
  const row = await paymentRow(deps.db, paymentId);
  const after = await captureAndSettle(deps, config, row);
  deps.logger.info({ paymentId, status: after.status }, 'paypal: capture job done');
}

/**
 * Captures the payment's order at PayPal (PayPal-Request-Id `capture-<paymentId>`, so a retry
 * gets the first answer again) and settles the payment by the capture. An order captured before
 * (ORDER_ALREADY_CAPTURED) is read back and its capture used. Answers the payment after.
 */
async function captureAndSettle(
  deps: PaypalDeps,
  config: PaypalConfig,
  row: PaymentRow,
): Promise<PaymentRow> {
  if (row.status !== 'pending' || !row.providerRef) return row;
  const orderId = row.providerRef;
  const log = deps.logger.child({ paymentId: row.id, orderId });
  let order: PaypalOrder;
  try {
    // Read the order first and capture only an approved one: a capture sent before the payer
    // approved would burn the request id `capture-<paymentId>` on an error that PayPal may
    // replay to every later capture with the same id. A pending or completed capture (an
    // e-check, or captured by the job) is read from the order too.
    // If the order cannot be read, the capture itself still answers for it.
    const current = await getOrder(config, orderId).catch((readErr: unknown) => {
      log.warn({ err: readErr }, 'paypal: order could not be read before capturing');
      return null;
    });
    if (current === null || current.status === 'APPROVED')
      order = await captureOrder(config, orderId, row.id);
    else if (current.status === 'COMPLETED' || firstCapture(current)) order = current;
    else
      throw new PaypalApiError(
        422,
        'ORDER_NOT_APPROVED',
        null,
        `order ${orderId} is ${current.status}`,
      );
  } catch (err) {
    if (err instanceof PaypalApiError && err.status === 422) {
      if (err.issue === 'ORDER_ALREADY_CAPTURED') {
        order = await getOrder(config, orderId).catch((readErr: unknown) => {
          log.error({ err: readErr }, 'paypal: captured order could not be read');
          throw new AppError('INTERNAL', CAPTURE_FAILED);
        });
      } else if (err.issue === 'ORDER_NOT_APPROVED' || err.issue === 'PAYER_ACTION_REQUIRED') {
        throw new AppError('CONFLICT', NOT_APPROVED);
      } else if (err.issue === 'INSTRUMENT_DECLINED') {
        // PayPal's advice: send the payer back to choose another funding source.
        throw new AppError('CONFLICT', INSTRUMENT_DECLINED);
      } else {
        log.error({ err }, 'paypal: capture refused');
        throw new AppError('INTERNAL', CAPTURE_FAILED);
      }
    } else {
      log.error({ err }, 'paypal: capture failed');
      throw new AppError('INTERNAL', CAPTURE_FAILED);
    }
  }
  const capture = firstCapture(order);
  if (!capture) {
    log.warn({ orderStatus: order.status }, 'paypal: order has no capture yet');
    return paymentRow(deps.db, row.id);
  }
  await applyCapture(deps, row, capture, null);
  return paymentRow(deps.db, row.id);
}

type Once<T> = { replay: true } | { replay: false; value: T };

/**
 * Runs `effect` in a transaction that also records the webhook event (processed_event
 * `paypal:<event id>`): a repeated event, concurrent or later, finds the mark and does nothing.
 * Without an event (the capture's own answer) the effect alone runs, guarded by its own state.
 */
async function once<T>(
  deps: PaypalDeps,
  eventId: string | null,
  paymentId: string,
  effect: (tx: Tx) => Promise<T>,
): Promise<Once<T>> {
  try {
    return await deps.db.transaction(async (tx): Promise<Once<T>> => {
      if (eventId !== null) {
        // The payment's lock first: the mark's foreign key takes a share lock on the payment
        // row, and two deliveries holding it while each waits for settleTopup's update lock
        // would deadlock. With it, deliveries about one payment run one after the other.
        await tx
          .select({ id: payment.id })
          .from(payment)
          .where(eq(payment.id, paymentId))
          .for('update');
        const marked = await tx
          .insert(processedEvent)
          .values({ provider: 'paypal', eventId: `paypal:${eventId}`, paymentId })
          .onConflictDoNothing()
          .returning({ eventId: processedEvent.eventId });
        if (marked.length === 0) return { replay: true };
      }
      return { replay: false, value: await effect(tx) };
    });
  } catch (err) {
    if (eventId !== null && pgErrorCode(err) === '23505') return { replay: true };
    throw err;
  }
}

/** "25.73" in USD → 2573n; anything else (another currency, a malformed value) → null. */
function usdCents(money: { currency_code: string; value: string } | undefined): bigint | null {
  if (!money || money.currency_code !== 'USD') return null;
  return parseAmount(money.value);
}

/**
 * Settles a payment by one of its captures (from the capture's answer or a verified webhook):
 * COMPLETED for exactly amount + fee in USD credits (or holds for finance) once; PENDING is
 * recorded and waits for the webhook; DECLINED/FAILED rejects the payment.
 */
async function applyCapture(
  deps: PaypalDeps,
  row: PaymentRow,
  capture: PaypalCapture,
  eventId: string | null,
): Promise<void> {
  const log = deps.logger.child({
    paymentId: row.id,
    captureId: capture.id,
    captureStatus: capture.status,
    ...(eventId ? { eventId } : {}),
  });
  switch (capture.status) {
    case 'COMPLETED': {
      const paid = usdCents(capture.amount);
      const expected = row.amount + row.fee;
      if (paid !== expected) {
        // Never credit what we did not ask for; the mark (if any) keeps a redelivery away.
        await once(deps, eventId, row.id, async (tx) => {
          await tx
            .update(payment)
            .set({ providerPaymentId: capture.id, providerStatus: capture.status })
            .where(and(eq(payment.id, row.id), eq(payment.status, 'pending')));
        });
        log.error(
          {
            expected: formatAmount(expected),
            paid: capture.amount?.value ?? null,
            currency: capture.amount?.currency_code ?? null,
          },
          'paypal: captured amount differs from the payment; NOT credited, left pending for review',
        );
        return;
      }
      const result = await once(deps, eventId, row.id, (tx) =>
        settleTopup(tx, row.id, { providerPaymentId: capture.id, providerStatus: capture.status }),
      );
      if (result.replay) {
        log.info('paypal: event already processed');
        return;
      }
      reportSettled(deps, log, result.value);
      return;
    }
    case 'PENDING': {
      const result = await once(deps, eventId, row.id, (tx) =>
        tx
          .update(payment)
          .set({
            providerPaymentId: capture.id,
            providerStatus: capture.status,
            updatedAt: new Date(),
          })
          .where(and(eq(payment.id, row.id), eq(payment.status, 'pending')))
          .returning({ id: payment.id }),
      );
      log.info(
        { replay: result.replay },
        'paypal: capture pending at PayPal; waiting for its webhook',
      );
      return;
    }
    case 'DECLINED':
    case 'DENIED':
    case 'FAILED': {
      const result = await once(deps, eventId, row.id, (tx) =>
        tx
          .update(payment)
          .set({
            status: 'rejected',
            rejectReason: DECLINED_REASON,
            providerPaymentId: capture.id,
            providerStatus: capture.status,
            updatedAt: new Date(),
          })
          .where(and(eq(payment.id, row.id), eq(payment.status, 'pending')))
          .returning({ id: payment.id }),
      );
      const rejected = !result.replay && result.value.length > 0;
      log.info({ rejected }, 'paypal: capture declined');
      return;
    }
    default:
      log.warn('paypal: capture in an unexpected state; nothing done');
  }
}

function reportSettled(deps: PaypalDeps, log: Logger, outcome: SettleOutcome): void {
  switch (outcome.kind) {
    case 'credited':
      log.info(
        { userId: outcome.payment.userId, amount: formatAmount(outcome.payment.amount) },
        'paypal: payment credited',
      );
      notifyCredited(deps, outcome.payment);
      return;
    case 'held':
      log.info({ userId: outcome.payment.userId }, 'paypal: payment held for review');
      return;
    case 'not-pending':
      if (['completed', 'review', 'reversed'].includes(outcome.payment.status)) {
        log.info({ status: outcome.payment.status }, 'paypal: payment was already settled');
      } else {
        log.error(
          { status: outcome.payment.status },
          'paypal: captured payment that is no longer pending; NOT credited, review it',
        );
      }
  }
}

// ─── Webhooks ─────────────────────────────────────────────────────────────────────────────────

/** The transmission headers PayPal signs a delivery with. */
const SIGNATURE_HEADERS = {
  authAlgo: 'paypal-auth-algo',
  certUrl: 'paypal-cert-url',
  transmissionId: 'paypal-transmission-id',
  transmissionSig: 'paypal-transmission-sig',
  transmissionTime: 'paypal-transmission-time',
} as const;

/**
 * Verifies one webhook delivery with PayPal and handles it. 400 when it is not PayPal's (or
 * webhooks are not configured: without PAYPAL_WEBHOOK_ID nothing can be verified); any other
 * outcome, replays and ignored events included, is a success. A failure to record (database,
 * PayPal unreachable for the check) throws, so the answer is a 5xx and PayPal retries.
 */
export async function handlePaypalWebhook(
  deps: PaypalDeps,
  rawBody: string,
  header: (name: string) => string | undefined,
): Promise<void> {
  const config = requirePaypal(deps.env);
  if (!config.webhookId) {
    deps.logger.warn('paypal: webhook refused: PAYPAL_WEBHOOK_ID is not set');
    throw new AppError('BAD_REQUEST', WEBHOOKS_OFF);
  }
  const values = Object.fromEntries(
    Object.entries(SIGNATURE_HEADERS).map(([key, name]) => [key, header(name)?.trim() ?? '']),
  ) as Record<keyof typeof SIGNATURE_HEADERS, string>;
  const missing = Object.entries(values)
    .filter(([, v]) => v === '' || v.length > 4096)
    .map(([k]) => k);
  let parsed: unknown;
  try {
    parsed = JSON.parse(rawBody);
  } catch {
    parsed = null;
  }
  const event = PaypalEventSchema.safeParse(parsed);
  if (missing.length > 0 || !event.success) {
    deps.logger.warn(
      { missing, wellFormed: event.success },
      'paypal: webhook rejected before verification',
    );
    throw new AppError('BAD_REQUEST', BAD_SIGNATURE);
  }
  let status: string;
  try {
    status = await verifyWebhookSignature(config, config.webhookId, values, rawBody);
  } catch (err) {
    // PayPal refusing the request itself (4xx) means it does not vouch for it.
    if (err instanceof PaypalApiError && err.status >= 400 && err.status < 500) {
      status = `ERROR ${err.status}`;
    } else {
      throw err;
    }
  }
  if (status !== 'SUCCESS') {
    deps.logger.warn(
      { status, transmissionId: values.transmissionId, eventId: event.data.id },
      'paypal: webhook rejected: signature not verified',
    );
    throw new AppError('BAD_REQUEST', BAD_SIGNATURE);
  }
  await dispatchEvent(deps, event.data);
}

type PaypalEvent = z.infer<typeof PaypalEventSchema>;

async function dispatchEvent(deps: PaypalDeps, event: PaypalEvent): Promise<void> {
  const log = deps.logger.child({ eventId: event.id, eventType: event.event_type });
  switch (event.event_type) {
    case 'PAYMENT.CAPTURE.COMPLETED':
    case 'PAYMENT.CAPTURE.PENDING':
    case 'PAYMENT.CAPTURE.DENIED':
    case 'PAYMENT.CAPTURE.DECLINED': {
      const capture = CaptureSchema.safeParse(event.resource);
      if (!capture.success) {
        log.warn('paypal: capture event without a capture; ignored');
        return;
      }
      const row = await findPayment(deps.db, {
        customId: capture.data.custom_id,
        orderId: capture.data.supplementary_data?.related_ids?.order_id,
        captureId: capture.data.id,
      });
      if (!row) {
        log.warn({ captureId: capture.data.id }, 'paypal: capture of no payment of ours; ignored');
        return;
      }
      // The event's type is the truth about the state (a DENIED event's resource says DENIED).
      const status =
        event.event_type === 'PAYMENT.CAPTURE.COMPLETED'
          ? 'COMPLETED'
          : event.event_type === 'PAYMENT.CAPTURE.PENDING'
            ? 'PENDING'
            : 'DECLINED';
      await applyCapture(deps, row, { ...capture.data, status }, event.id);
      return;
    }
    case 'PAYMENT.CAPTURE.REFUNDED': {
      const refund = RefundSchema.safeParse(event.resource);
      if (!refund.success) {
        log.warn('paypal: refund event without a refund; ignored');
        return;
      }
      const row = await findPayment(deps.db, {
        customId: refund.data.custom_id,
        captureId: captureIdOf(refund.data.links),
      });
      if (!row) {
        log.warn({ refundId: refund.data.id }, 'paypal: refund of no payment of ours; ignored');
        return;
      }
      const cents = usdCents(refund.data.amount);
      if (cents === null || cents <= 0n) {
        log.error(
          { paymentId: row.id, amount: refund.data.amount ?? null },
          'paypal: refund amount unreadable or not USD; NOT debited, review it',
        );
        return;
      }
      await reverse(deps, log, event.id, row, {
        amount: cents < row.amount ? cents : row.amount,
        key: refund.data.id,
        reason: REFUND_REASON,
      });
      return;
    }
    case 'PAYMENT.CAPTURE.REVERSED': {
      const resource = RefundSchema.safeParse(event.resource);
      if (!resource.success) {
        log.warn('paypal: reversal event without a resource id; ignored');
        return;
      }
      const row = await findPayment(deps.db, {
        customId: resource.data.custom_id,
        captureId: resource.data.id,
        upCaptureId: captureIdOf(resource.data.links),
      });
      if (!row) {
        log.warn({ resourceId: resource.data.id }, 'paypal: reversal of no payment of ours');
        return;
      }
      await reverse(deps, log, event.id, row, {
        amount: null,
        key: `reversed:${resource.data.id}`,
        reason: REVERSAL_REASON,
      });
      return;
    }
    case 'CHECKOUT.ORDER.APPROVED': {
      const order = OrderSchema.safeParse(event.resource);
      if (!order.success) {
        log.warn('paypal: approval event without an order; ignored');
        return;
      }
      const row = await findPayment(deps.db, {
        orderId: order.data.id,
        customId: order.data.purchase_units?.[0]?.custom_id,
      });
      if (!row || row.providerRef !== order.data.id) {
        log.warn({ orderId: order.data.id }, 'paypal: approval of no order of ours; ignored');
        return;
      }
      if (row.status !== 'pending') {
        log.info(
          { paymentId: row.id, status: row.status },
          'paypal: approved order already settled',
        );
        return;
      }
      // The job commits with the event's mark: a redelivery finds the mark, and one job per
      // order waits at a time (singleton key).
      const result = await once(deps, event.id, row.id, (tx) =>
        sendInTx(tx, 'paypal-capture', { paymentId: row.id }, { singletonKey: order.data.id }),
      );
      if (!result.replay) deps.jobs.wake('paypal-capture');
      log.info({ paymentId: row.id, replay: result.replay }, 'paypal: capture queued');
      return;
    }
    default:
      log.info('paypal: event ignored');
  }
}

/** A refund (or the refund-like resource of a reversal): what the handlers read. */
const RefundSchema = z.looseObject({
  id: z.string().min(1),
  amount: z.looseObject({ currency_code: z.string(), value: z.string() }).optional(),
  custom_id: z.string().optional(),
  links: z.array(z.looseObject({ href: z.string(), rel: z.string() })).optional(),
});

/** The capture a refund belongs to: its `up` link ends in /captures/<id>. */
function captureIdOf(links: { href: string; rel: string }[] | undefined): string | undefined {
  const up = links?.find((l) => l.rel === 'up')?.href;
  const match = up ? /\/captures\/([A-Za-z0-9-]+)\/?$/.exec(up) : null;
  return match?.[1];
}

/**
 * Our PayPal payment behind an event: by custom_id (our payment id), else by the order id
 * (providerRef), else by the capture id (providerPaymentId).
 */
async function findPayment(
  db: Db,
  keys: { customId?: string; orderId?: string; captureId?: string; upCaptureId?: string },
): Promise<PaymentRow | null> {
  const paypal = eq(payment.method, 'paypal');
  if (keys.customId && UUID.test(keys.customId)) {
    const [row] = await db
      .select()
      .from(payment)
      .where(and(paypal, eq(payment.id, keys.customId)));
    if (row) return row;
  }
  if (keys.orderId) {
    const [row] = await db
      .select()
      .from(payment)
      .where(and(paypal, eq(payment.providerRef, keys.orderId)));
    if (row) return row;
  }
  for (const captureId of [keys.captureId, keys.upCaptureId]) {
    if (!captureId) continue;
    const [row] = await db
      .select()
      .from(payment)
      .where(and(paypal, eq(payment.providerPaymentId, captureId)));
    if (row) return row;
  }
  return null;
}

async function reverse(
  deps: PaypalDeps,
  log: Logger,
  eventId: string,
  row: PaymentRow,
  options: { amount: bigint | null; key: string; reason: string },
): Promise<void> {
  const result = await once(deps, eventId, row.id, (tx) => reverseTopup(tx, row.id, options));
  if (result.replay) {
    log.info({ paymentId: row.id }, 'paypal: event already processed');
    return;
  }
  const outcome: ReverseOutcome = result.value;
  switch (outcome.kind) {
    case 'debited':
      log.warn(
        {
          paymentId: row.id,
          userId: row.userId,
          debited: formatAmount(outcome.debited),
          flagged: outcome.flagged,
        },
        'paypal: top-up debited back',
      );
      notifyReversed(deps, outcome.payment, outcome.debited, options.reason);
      return;
    case 'cancelled':
      log.warn({ paymentId: row.id }, 'paypal: top-up not credited yet closed as reversed');
      return;
    case 'nothing':
      log.info({ paymentId: row.id, status: outcome.payment.status }, 'paypal: nothing to debit');
  }
}

// ─── E-mail ───────────────────────────────────────────────────────────────────────────────────

async function customerOf(db: Db, userId: string) {
  const [customer] = await db
    .select({ email: userTable.email, name: userTable.name })
    .from(userTable)
    .where(eq(userTable.id, userId));
  if (!customer) throw new Error(`user ${userId} not found`);
  return customer;
}

/** E-mails the customer once the credit has committed; a failure is logged and changes nothing. */
function notifyCredited(deps: PaypalDeps, credited: PaymentRow): void {
  mailAfterCommit(deps, 'paypal: payment credited', { paymentId: credited.id }, async () => {
    const customer = await customerOf(deps.db, credited.userId);
    const { available } = await balances(deps.db, credited.userId);
    return paypalCreditedEmail({
      appName: deps.env.APP_NAME,
      appUrl: deps.env.APP_URL,
      to: customer.email,
      name: customer.name,
      amount: credited.amount,
      balance: available,
    });
  });
}

/** Tells the customer what was debited back and where the balance stands now. */
function notifyReversed(
  deps: PaypalDeps,
  reversed: PaymentRow,
  debited: bigint,
  reason: string,
): void {
  mailAfterCommit(deps, 'paypal: top-up reversed', { paymentId: reversed.id }, async () => {
    const customer = await customerOf(deps.db, reversed.userId);
    const { available } = await balances(deps.db, reversed.userId);
    return paypalReversedEmail({
      appName: deps.env.APP_NAME,
      appUrl: deps.env.APP_URL,
      to: customer.email,
      name: customer.name,
      debited,
      balance: available,
      reason,
    });
  });
}
