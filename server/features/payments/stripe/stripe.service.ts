import { and, eq } from 'drizzle-orm';
import Stripe from 'stripe';
import { z } from 'zod';
import { pgErrorCode, type Db, type Tx } from '../../../db/client';
import { user as userTable } from '../../../db/schema/auth';
import { payment, processedEvent } from '../../../db/schema/payments';
import { AppError } from '../../../lib/errors';
import type { Logger } from '../../../lib/logger';
import type { Mailer } from '../../../lib/mail';
import { mailAfterCommit } from '../../../lib/notify';
import { balances } from '../../ledger/ledger.service';
import type { Env } from '../../../env';
import {
  reverseTopup,
  settleTopup,
  type PaymentRow,
  type ReverseOutcome,
} from '../payments.service';
import { abandonTopup, gatewayTerms, quoteTopup, startGatewayTopup } from '../topup-terms';
import type { StripeConfig } from './stripe.config';
import { topUpCreditedEmail } from './stripe.email';

export type StripeDeps = {
  db: Db;
  /** The server's configuration (the card's default limits come from `env.stripe`). */
  env: Env;
  mailer: Mailer;
  logger: Logger;
  stripe: StripeConfig | null;
};

export const NOT_AVAILABLE_MESSAGE = 'El pago con tarjeta no está disponible.';
const CHECKOUT_FAILED_MESSAGE = 'No pudimos iniciar el pago con tarjeta. Inténtalo de nuevo.';
const BAD_SIGNATURE_MESSAGE = 'Firma del webhook no válida.';

/** One client per configuration (it keeps its own connection pool). */
const clients = new WeakMap<StripeConfig, Stripe>();

function stripeClient(config: StripeConfig): Stripe {
  let client = clients.get(config);
  if (!client) {
    client = new Stripe(config.secretKey, {
      // Retries are safe: the session create carries an idempotency key.
      maxNetworkRetries: 2,
      timeout: 20_000,
      ...(config.api ?? {}),
    });
    clients.set(config, client);
  }
  return client;
}

/** The configuration, or 404 "not available" when card payments are not configured. */
export function requireStripe(config: StripeConfig | null): StripeConfig {
  if (!config) throw new AppError('NOT_FOUND', NOT_AVAILABLE_MESSAGE);
  return config;
}

/**
 * What Stripe posts to the webhook, as the API documents it. Only documentation: the handler
 * reads the raw text, because the signature covers the exact bytes.
 */
export const StripeEventSchema = z.looseObject({
  id: z.string(),
  type: z.string(),
  data: z.looseObject({ object: z.looseObject({}) }),
});

/**
 * Starts a card top-up: the amount within the admin's card limits and its fee, a pending
 * `payment` row first, then a Stripe Checkout Session charging exactly amount + fee (idempotency
 * key `checkout:<paymentId>`), whose id is stored as the payment's provider reference. Nothing
 * is credited here: only the signed webhook credits.
 */
export async function createCheckout(
  deps: StripeDeps,
  customer: { id: string },
  amount: string,
  appUrl: string,
): Promise<{ paymentId: string; url: string }> {
  const config = requireStripe(deps.stripe);
  const terms = await gatewayTerms(deps.db, { ...deps.env, stripe: config }, 'stripe');
  const quote = quoteTopup('stripe', terms, amount);
  const created = await startGatewayTopup(deps.db, {
    userId: customer.id,
    method: 'stripe',
    quote,
  });
  const paymentId = created.id;

  let session: Stripe.Checkout.Session;
  try {
    session = await stripeClient(config).checkout.sessions.create(
      {
        mode: 'payment',
        line_items: [
          {
            price_data: {
              currency: 'usd',
              // What the customer pays: the amount credited plus the fee.
              unit_amount: Number(quote.total),
              product_data: { name: 'Recarga de saldo' },
            },
            quantity: 1,
          },
        ],
        client_reference_id: paymentId,
        metadata: { paymentId },
        success_url: `${appUrl}/addfunds?pago=exito`,
        cancel_url: `${appUrl}/addfunds?pago=cancelado`,
      },
      { idempotencyKey: `checkout:${paymentId}` },
    );
    if (!session.url) throw new Error(`checkout session ${session.id} has no url`);
  } catch (err) {
    deps.logger.error({ err, paymentId }, 'stripe: checkout session could not be created');
    // It never got a session, so it can never be paid.
    await abandonTopup(deps.db, paymentId);
    throw new AppError('INTERNAL', CHECKOUT_FAILED_MESSAGE);
  }

  await deps.db
    .update(payment)
    .set({ providerRef: session.id, checkoutUrl: session.url, updatedAt: new Date() })
    .where(eq(payment.id, paymentId));
  deps.logger.info({ paymentId, sessionId: session.id }, 'stripe: checkout session created');
  return { paymentId, url: session.url };
}

/**
 * Verifies and handles one Stripe webhook delivery. Throws 400 on a bad signature (or one older
 * than the tolerance); any other outcome, including replays and events we ignore, is a success.
 */
export async function handleWebhook(
  deps: StripeDeps,
  rawBody: string,
  signature: string | undefined,
): Promise<void> {
  const config = requireStripe(deps.stripe);
  let event: Stripe.Event;
  try {
    if (!signature) throw new Error('missing Stripe-Signature header');
    event = Stripe.webhooks.constructEvent(
      rawBody,
      signature,
      config.webhookSecret,
      config.webhookTolerance,
    );
  } catch (err) {
    deps.logger.warn(
      { reason: err instanceof Error ? err.message : String(err) },
      'stripe: webhook rejected',
    );
    throw new AppError('BAD_REQUEST', BAD_SIGNATURE_MESSAGE);
  }
  // Signed is not well-formed: an event without `data.object` is refused, never a 500.
  if (!StripeEventSchema.safeParse(event).success) {
    deps.logger.warn(
      { eventId: (event as { id?: unknown } | null)?.id },
      'stripe: malformed event',
    );
    throw new AppError('BAD_REQUEST', 'El aviso de Stripe no tiene la forma esperada.');
  }

  switch (event.type) {
    case 'checkout.session.completed':
    case 'checkout.session.async_payment_succeeded':
      await creditSession(deps, event.id, event.data.object);
      return;
    case 'checkout.session.expired':
      await expireSession(deps, event.id, event.data.object);
      return;
    case 'checkout.session.async_payment_failed':
      // A delayed method (e.g. a bank debit) failed after the customer left Checkout.
      await failSession(deps, event.id, event.data.object);
      return;
    case 'charge.refunded':
      await refundCharge(deps, event.id, event.data.object);
      return;
    case 'charge.dispute.created':
      await disputeCharge(deps, event.id, event.data.object);
      return;
    default:
      deps.logger.info({ eventId: event.id, type: event.type }, 'stripe: event ignored');
  }
}

type CreditOutcome =
  | { kind: 'replay' }
  | { kind: 'amount-mismatch' }
  | { kind: 'credited'; payment: PaymentRow }
  | { kind: 'held'; payment: PaymentRow }
  | { kind: 'not-pending'; payment: PaymentRow };

/** The id of an expandable Stripe field (a string, or the object when expanded), or null. */
function idOf(value: string | { id: string } | null | undefined): string | null {
  if (!value) return null;
  return typeof value === 'string' ? value : value.id;
}

/**
 * Credits the payment behind a paid session, exactly once, or holds it for finance when the
 * fraud rule applies (settleTopup). The event mark (processed_event) and the credit commit in
 * one transaction: a concurrent delivery of the same event waits on the mark's primary key and
 * then finds it taken; a later one finds it at once. The session must have charged exactly
 * amount + fee; the amount credited is always our payment row's, never the event's.
 */
async function creditSession(
  deps: StripeDeps,
  eventId: string,
  session: Stripe.Checkout.Session,
): Promise<void> {
  const log = deps.logger.child({ eventId, sessionId: session.id });
  if (session.payment_status !== 'paid') {
    log.info({ paymentStatus: session.payment_status }, 'stripe: session not paid yet');
    return;
  }
  const [row] = await deps.db
    .select()
    .from(payment)
    .where(and(eq(payment.method, 'stripe'), eq(payment.providerRef, session.id)));
  if (!row) {
    log.warn('stripe: paid session that is not one of our payments; ignored');
    return;
  }
  const amountMatches =
    session.amount_total !== null &&
    BigInt(session.amount_total) === row.amount + row.fee &&
    session.currency === 'usd';

  let outcome: CreditOutcome;
  try {
    outcome = await deps.db.transaction(async (tx): Promise<CreditOutcome> => {
      const marked = await tx
        .insert(processedEvent)
        .values({ provider: 'stripe', eventId, paymentId: row.id })
        .onConflictDoNothing()
        .returning({ eventId: processedEvent.eventId });
      if (marked.length === 0) return { kind: 'replay' };
      if (!amountMatches) return { kind: 'amount-mismatch' };
      // The PaymentIntent is what refunds and disputes name later.
      return settleTopup(tx, row.id, {
        providerPaymentId: idOf(session.payment_intent),
        providerStatus: session.payment_status,
      });
    });
  } catch (err) {
    if (pgErrorCode(err) !== '23505') throw err;
    outcome = { kind: 'replay' };
  }

  switch (outcome.kind) {
    case 'replay':
      log.info({ paymentId: row.id }, 'stripe: event already processed');
      return;
    case 'amount-mismatch':
      log.error(
        {
          paymentId: row.id,
          expected: (row.amount + row.fee).toString(),
          amountTotal: session.amount_total,
          currency: session.currency,
        },
        'stripe: paid amount differs from the payment; NOT credited, left pending for review',
      );
      return;
    case 'held':
      log.warn(
        { paymentId: row.id, userId: row.userId, amount: row.amount.toString() },
        'stripe: payment held for review by finance',
      );
      return;
    case 'not-pending':
      if (outcome.payment.status === 'completed' || outcome.payment.status === 'review') {
        log.info({ paymentId: row.id }, 'stripe: payment was already credited');
      } else {
        log.error(
          { paymentId: row.id, status: outcome.payment.status },
          'stripe: paid session for a payment that is no longer pending; NOT credited, review it',
        );
      }
      return;
    case 'credited':
      log.info(
        { paymentId: row.id, userId: row.userId, amount: row.amount.toString() },
        'stripe: payment credited',
      );
      notifyCredited(deps, outcome.payment);
  }
}

/** A session that expired unpaid: its payment can never complete. */
async function expireSession(
  deps: StripeDeps,
  eventId: string,
  session: Stripe.Checkout.Session,
): Promise<void> {
  const expired = await deps.db
    .update(payment)
    .set({ status: 'expired', updatedAt: new Date() })
    .where(
      and(
        eq(payment.method, 'stripe'),
        eq(payment.providerRef, session.id),
        eq(payment.status, 'pending'),
      ),
    )
    .returning({ id: payment.id });
  deps.logger.info(
    { eventId, sessionId: session.id, paymentId: expired[0]?.id ?? null },
    expired.length ? 'stripe: payment expired' : 'stripe: expired session with no pending payment',
  );
}

/** A delayed payment that failed: its payment is rejected with a reason the customer sees. */
async function failSession(
  deps: StripeDeps,
  eventId: string,
  session: Stripe.Checkout.Session,
): Promise<void> {
  const failed = await deps.db
    .update(payment)
    .set({
      status: 'rejected',
      rejectReason: 'El banco rechazó el pago. No se hizo ningún cargo.',
      updatedAt: new Date(),
    })
    .where(
      and(
        eq(payment.method, 'stripe'),
        eq(payment.providerRef, session.id),
        eq(payment.status, 'pending'),
      ),
    )
    .returning({ id: payment.id });
  deps.logger.info(
    { eventId, sessionId: session.id, paymentId: failed[0]?.id ?? null },
    'stripe: delayed payment failed',
  );
}

function describeReversal(result: ReverseOutcome): string {
  if (result.kind !== 'debited') return result.kind;
  return `debited ${result.debited.toString()}${result.flagged ? ', account flagged' : ''}`;
}

/** Our card top-up behind a PaymentIntent, or null. */
async function paymentOfIntent(tx: Db | Tx, paymentIntent: string | null) {
  if (!paymentIntent) return null;
  const [row] = await tx
    .select()
    .from(payment)
    .where(and(eq(payment.method, 'stripe'), eq(payment.providerPaymentId, paymentIntent)));
  return row ?? null;
}

/**
 * Debits a refund or chargeback of a card top-up back from the balance (reverseTopup: even past
 * zero, flagging the account), once per event and per `key`. Unknown charges are acknowledged
 * and ignored. Returns what happened, for the log.
 */
async function reverseCharge(
  deps: StripeDeps,
  eventId: string,
  paymentIntent: string | null,
  reverse: (tx: Tx, row: PaymentRow) => Promise<string>,
): Promise<void> {
  const log = deps.logger.child({ eventId, paymentIntent });
  const found = await paymentOfIntent(deps.db, paymentIntent);
  if (!found) {
    log.info('stripe: refund or dispute of a charge that is not one of our top-ups; ignored');
    return;
  }
  let outcome: string;
  try {
    outcome = await deps.db.transaction(async (tx) => {
      const marked = await tx
        .insert(processedEvent)
        .values({ provider: 'stripe', eventId, paymentId: found.id })
        .onConflictDoNothing()
        .returning({ eventId: processedEvent.eventId });
      if (marked.length === 0) return 'replay';
      // Lock the payment: what was reversed already is read under the lock.
      const [row] = await tx.select().from(payment).where(eq(payment.id, found.id)).for('update');
      if (!row) throw new Error(`payment ${found.id} vanished`);
      return reverse(tx, row);
    });
  } catch (err) {
    if (pgErrorCode(err) !== '23505') throw err;
    outcome = 'replay';
  }
  log.info({ paymentId: found.id, outcome }, 'stripe: charge reversal handled');
}

/**
 * charge.refunded: `amount_refunded` is the charge's running total of refunds. The balance is
 * debited up to that total, capped at what the top-up credited (the fee is the shop's); what
 * earlier refunds or a dispute took already is not taken twice. Key: the charge and the total.
 */
async function refundCharge(
  deps: StripeDeps,
  eventId: string,
  charge: Stripe.Charge,
): Promise<void> {
  const refunded = BigInt(charge.amount_refunded);
  await reverseCharge(deps, eventId, idOf(charge.payment_intent), async (tx, row) => {
    const target = refunded < row.amount ? refunded : row.amount;
    const debit = target - row.reversedAmount;
    // Not credited yet (held): reverseTopup just closes it; credited: debit what is new.
    const credited = row.status === 'completed' || row.status === 'reversed';
    if (credited && debit <= 0n) return 'nothing';
    const result = await reverseTopup(tx, row.id, {
      amount: credited ? debit : null,
      key: `${charge.id}:${charge.amount_refunded}`,
      reason: 'Reembolso del pago con tarjeta',
    });
    return describeReversal(result);
  });
}

/** charge.dispute.created: a chargeback takes back everything the top-up still has credited. */
async function disputeCharge(
  deps: StripeDeps,
  eventId: string,
  dispute: Stripe.Dispute,
): Promise<void> {
  await reverseCharge(deps, eventId, idOf(dispute.payment_intent), async (tx, row) => {
    const result = await reverseTopup(tx, row.id, {
      amount: null,
      key: dispute.id,
      reason: 'Contracargo (disputa) del pago con tarjeta',
    });
    return describeReversal(result);
  });
}

/** E-mails the customer once the credit has committed; a failure is logged and changes nothing. */
function notifyCredited(deps: StripeDeps, credited: PaymentRow): void {
  mailAfterCommit(deps, 'stripe: payment credited', { paymentId: credited.id }, async () => {
    const [customer] = await deps.db
      .select({ email: userTable.email, name: userTable.name })
      .from(userTable)
      .where(eq(userTable.id, credited.userId));
    if (!customer) throw new Error(`user ${credited.userId} not found`);
    const { available } = await balances(deps.db, credited.userId);
    return topUpCreditedEmail({
      appName: deps.env.APP_NAME,
      appUrl: deps.env.APP_URL,
      to: customer.email,
      name: customer.name,
      amount: credited.amount,
      balance: available,
    });
  });
}
