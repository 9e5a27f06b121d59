import { eq } from 'drizzle-orm';
import { z } from 'zod';
import { formatAmount, formatUsd, type Cents } from '../../../../shared/money';
import type { CryptoTopup, CryptoTopupRequest } from '../../../../shared/schemas/payments';
import { pgErrorCode, type Db, type Tx } from '../../../db/client';
import { user as userTable } from '../../../db/schema/auth';
import { payment, processedEvent } from '../../../db/schema/payments';
import type { Env } from '../../../env';
import { AppError } from '../../../lib/errors';
import type { Logger } from '../../../lib/logger';
import type { Mailer } from '../../../lib/mail';
import { mailAfterCommit } from '../../../lib/notify';
import { balances } from '../../ledger/ledger.service';
import type { NowPaymentsConfig } from '../gateway-config';
import { reverseTopup, settleTopup, supplementTopup, type PaymentRow } from '../payments.service';
import { abandonTopup, gatewayTerms, quoteTopup, startGatewayTopup } from '../topup-terms';
import { cryptoCreditedEmail } from './crypto.email';
import { COIN_SCALE, formatScaled, toScaled, verifiedIpnBody } from './nowpayments';

export type CryptoDeps = { db: Db; env: Env; mailer: Mailer; logger: Logger };

export const NOT_AVAILABLE_MESSAGE = 'El pago con criptomonedas no está disponible.';
const INVOICE_FAILED_MESSAGE = 'No pudimos iniciar el pago con criptomonedas. Inténtalo de nuevo.';
const BAD_SIGNATURE_MESSAGE = 'Firma del aviso de NOWPayments no válida.';
const MALFORMED_MESSAGE = 'El aviso de NOWPayments no tiene la forma esperada.';
const REFUND_REASON = 'Pago en criptomonedas reembolsado';

/** NOWPayments' answers are quick; a stuck call must not hold the customer's request forever. */
const API_TIMEOUT_MS = 20_000;

/** The configuration, or 404 "not available" when crypto payments are not configured. */
export function requireNowPayments(config: NowPaymentsConfig | null): NowPaymentsConfig {
  if (!config) throw new AppError('NOT_FOUND', NOT_AVAILABLE_MESSAGE);
  return config;
}

const IdSchema = z.union([z.string().min(1).max(64), z.number().int().nonnegative()]);
const AmountValueSchema = z.union([z.number(), z.string().max(64)]).nullish();

/**
 * What NOWPayments posts to the IPN callback (the fields Cometa reads; others pass through).
 * Only documentation and a shape check: the signature is checked on the raw text first.
 */
export const NowPaymentsIpnSchema = z.looseObject({
  payment_id: IdSchema.nullish(),
  invoice_id: IdSchema.nullish(),
  payment_status: z.string().min(1).max(40),
  price_amount: AmountValueSchema,
  price_currency: z.string().max(20).nullish(),
  pay_amount: AmountValueSchema,
  actually_paid: AmountValueSchema,
  pay_currency: z.string().max(40).nullish(),
  order_id: z.string().max(200).nullish(),
  outcome_amount: AmountValueSchema,
});
type Ipn = z.infer<typeof NowPaymentsIpnSchema>;

/** The answer to POST /v1/invoice (the fields read). */
const InvoiceAnswerSchema = z.looseObject({
  id: IdSchema,
  invoice_url: z.url({ protocol: /^https?$/ }),
});

/** The invoice's price: the total in USD with its two decimals, as a JSON number (25.73). */
function priceNumber(total: Cents): number {
  return Number(formatAmount(total));
}

/**
 * Starts a crypto top-up: the pending payment (amount + the method's fee), then a NOWPayments
 * invoice for the total in USD whose `order_id` is the payment's id. Nothing is credited here:
 * only a signed IPN credits.
 */
export async function createCryptoTopup(
  deps: CryptoDeps,
  customer: { id: string },
  request: CryptoTopupRequest,
): Promise<CryptoTopup> {
  const config = requireNowPayments(deps.env.nowpayments);
  const terms = await gatewayTerms(deps.db, deps.env, 'crypto');
  const quote = quoteTopup('crypto', terms, request.amount);
  const row = await startGatewayTopup(deps.db, { userId: customer.id, method: 'crypto', quote });
  const appUrl = deps.env.APP_URL;
  const log = deps.logger.child({ paymentId: row.id });

  let invoice: { id: string; url: string };
  try {
    const res = await fetch(`${config.apiBase}/v1/invoice`, {
      method: 'POST',
      headers: { 'x-api-key': config.apiKey, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        price_amount: priceNumber(quote.total),
        price_currency: 'usd',
        ...(request.payCurrency ? { pay_currency: request.payCurrency } : {}),
        order_id: row.id,
        order_description: 'Recarga de saldo',
        ipn_callback_url: `${appUrl}/api/webhooks/nowpayments`,
        success_url: `${appUrl}/addfunds?pago=cripto&id=${row.id}`,
        cancel_url: `${appUrl}/addfunds?pago=cancelado`,
      }),
      signal: AbortSignal.timeout(API_TIMEOUT_MS),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`NOWPayments answered ${res.status}: ${text.slice(0, 300)}`);
    const parsed = InvoiceAnswerSchema.safeParse(JSON.parse(text));
    if (!parsed.success) throw new Error(`unexpected invoice answer: ${text.slice(0, 300)}`);
    invoice = { id: String(parsed.data.id), url: parsed.data.invoice_url };
  } catch (err) {
    log.error({ err }, 'nowpayments: invoice could not be created');
    // It never got an invoice, so it can never be paid.
    await abandonTopup(deps.db, row.id);
    throw new AppError('INTERNAL', INVOICE_FAILED_MESSAGE);
  }

  await deps.db
    .update(payment)
    .set({ providerRef: invoice.id, checkoutUrl: invoice.url, updatedAt: new Date() })
    .where(eq(payment.id, row.id));
  log.info(
    { invoiceId: invoice.id, total: formatAmount(quote.total) },
    'nowpayments: invoice created',
  );
  return { id: row.id, invoiceUrl: invoice.url };
}

// ─── IPN ─────────────────────────────────────────────────────────────────────────────────────

/**
 * How far along a payment is, to keep the last status seen when IPNs arrive out of order
 * (a late `confirming` never overwrites `finished`).
 */
const STATUS_RANK: Record<string, number> = {
  waiting: 0,
  confirming: 1,
  confirmed: 2,
  sending: 3,
  partially_paid: 4,
  finished: 5,
  failed: 5,
  expired: 5,
  refunded: 6,
};

function rankOf(status: string | null): number {
  return status === null ? -1 : (STATUS_RANK[status] ?? -1);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** What arrived of the coin and what the invoice asked, both scaled by 10^COIN_SCALE. */
type Coins = { paid: bigint; asked: bigint; coin: string };

type IpnOutcome =
  | { kind: 'replay' }
  | { kind: 'mismatch'; reason: string }
  | { kind: 'noted' }
  | { kind: 'dust'; note: string }
  | { kind: 'credited'; payment: PaymentRow; credited: Cents; partial: boolean }
  | { kind: 'held'; payment: PaymentRow }
  | { kind: 'supplemented'; payment: PaymentRow; credited: Cents }
  | { kind: 'expired' }
  | { kind: 'reversed'; detail: string }
  | { kind: 'ignored'; reason: string }
  | { kind: 'unpaid-money'; reason: string };

function coinsOf(ipn: Ipn): Coins | null {
  const paid = toScaled(ipn.actually_paid ?? null, COIN_SCALE);
  const asked = toScaled(ipn.pay_amount ?? null, COIN_SCALE);
  if (paid === null || asked === null || asked <= 0n) return null;
  return { paid, asked, coin: (ipn.pay_currency ?? '').toUpperCase() };
}

/** The USD credit for what arrived: the invoice's amount scaled by the share paid, in cents. */
function creditFor(base: Cents, coins: Coins): Cents {
  return (base * coins.paid) / coins.asked;
}

/** The line the customer reads about a credit that is not exactly what they asked for. */
function noteFor(coins: Coins, credit: Cents, base: Cents, inParts: boolean): string | null {
  const arrived = `llegaron ${formatScaled(coins.paid, COIN_SCALE)} de ${formatScaled(coins.asked, COIN_SCALE)} ${coins.coin}`;
  if (credit < base)
    return `Pago parcial: ${arrived}; acreditamos ${formatUsd(credit)} de ${formatUsd(base)}.`;
  if (credit > base)
    return `Pagaste de más: ${arrived}; acreditamos ${formatUsd(credit)} en lugar de ${formatUsd(base)}.`;
  return inParts
    ? `Pago completado en varias partes: ${arrived}; acreditamos ${formatUsd(credit)}.`
    : null;
}

function dustNote(coins: Coins): string {
  return `Llegaron ${formatScaled(coins.paid, COIN_SCALE)} de ${formatScaled(coins.asked, COIN_SCALE)} ${coins.coin}: es menos de un centavo de dólar y no se pudo acreditar.`;
}

/**
 * Verifies and handles one IPN. 400 for a missing or bad signature, or a signed body without
 * the fields every IPN has; anything else (replays, payments not ours, amounts that do not
 * match) is acknowledged. Errors of the database propagate (5xx: NOWPayments retries).
 */
export async function handleIpn(
  deps: CryptoDeps,
  rawBody: string,
  signature: string | undefined,
): Promise<void> {
  const config = requireNowPayments(deps.env.nowpayments);
  const body = verifiedIpnBody(rawBody, signature, config.ipnSecret);
  if (!body) {
    deps.logger.warn(
      { hasSignature: Boolean(signature), bytes: rawBody.length },
      'nowpayments: IPN rejected (signature)',
    );
    throw new AppError('BAD_REQUEST', BAD_SIGNATURE_MESSAGE);
  }
  const parsed = NowPaymentsIpnSchema.safeParse(body);
  if (!parsed.success || (!parsed.data.order_id && parsed.data.invoice_id == null)) {
    deps.logger.warn({ paymentId: body.payment_id }, 'nowpayments: malformed IPN');
    throw new AppError('BAD_REQUEST', MALFORMED_MESSAGE);
  }
  const ipn = parsed.data;
  const status = ipn.payment_status;
  const npPaymentId = ipn.payment_id == null ? null : String(ipn.payment_id);
  const invoiceId = ipn.invoice_id == null ? null : String(ipn.invoice_id);
  const log = deps.logger.child({ npPaymentId, invoiceId, status });

  const row = await findPayment(deps.db, ipn.order_id ?? null, invoiceId);
  if (!row) {
    log.warn({ orderId: ipn.order_id }, 'nowpayments: IPN for a payment that is not ours; ignored');
    return;
  }
  if (invoiceId !== null && row.providerRef !== null && row.providerRef !== invoiceId) {
    log.error(
      { paymentId: row.id, providerRef: row.providerRef },
      'nowpayments: IPN invoice differs from the payment; ignored',
    );
    return;
  }

  const paidText = (() => {
    const paid = toScaled(ipn.actually_paid ?? null, COIN_SCALE);
    return paid === null ? '-' : formatScaled(paid, COIN_SCALE);
  })();
  const eventId = `nowpayments:${npPaymentId ?? `invoice-${invoiceId ?? row.id}`}:${status}:${paidText}`;

  let outcome: IpnOutcome;
  try {
    outcome = await deps.db.transaction((tx) =>
      applyIpn(tx, row.id, ipn, { eventId, npPaymentId, paidText }),
    );
  } catch (err) {
    if (pgErrorCode(err) !== '23505') throw err;
    outcome = { kind: 'replay' };
  }
  const at = { paymentId: row.id, userId: row.userId, eventId };
  switch (outcome.kind) {
    case 'replay':
      log.info(at, 'nowpayments: IPN already processed');
      return;
    case 'mismatch':
      log.error(
        { ...at, reason: outcome.reason },
        'nowpayments: IPN does not match the payment; NOT applied',
      );
      return;
    case 'noted':
      log.info(at, 'nowpayments: payment status recorded');
      return;
    case 'dust':
      log.warn({ ...at, note: outcome.note }, 'nowpayments: too little arrived to credit');
      return;
    case 'held':
      log.info(at, 'nowpayments: payment held for review');
      return;
    case 'credited':
      log.info(
        { ...at, credited: formatAmount(outcome.credited), partial: outcome.partial },
        'nowpayments: payment credited',
      );
      notifyCredited(deps, outcome.payment, outcome.credited, outcome.partial ? 'partial' : 'full');
      return;
    case 'supplemented':
      log.info(
        { ...at, credited: formatAmount(outcome.credited) },
        'nowpayments: more arrived; the difference was credited',
      );
      notifyCredited(deps, outcome.payment, outcome.credited, 'supplement');
      return;
    case 'expired':
      log.info(at, 'nowpayments: payment expired');
      return;
    case 'reversed':
      log.warn({ ...at, detail: outcome.detail }, 'nowpayments: payment refunded');
      return;
    case 'ignored':
      log.info({ ...at, reason: outcome.reason }, 'nowpayments: IPN recorded, nothing to do');
      return;
    case 'unpaid-money':
      // Money arrived for a top-up that is closed (expired, refunded): finance must look.
      log.error(
        { ...at, reason: outcome.reason },
        'nowpayments: money arrived for a closed payment; NOT credited, review it',
      );
  }
}

/** Our crypto payment named by `order_id` (our id) or, failing that, by the invoice id. */
async function findPayment(
  db: Db,
  orderId: string | null,
  invoiceId: string | null,
): Promise<PaymentRow | null> {
  if (orderId && UUID.test(orderId)) {
    const [byId] = await db.select().from(payment).where(eq(payment.id, orderId));
    if (byId) return byId.method === 'crypto' ? byId : null;
  }
  if (invoiceId === null) return null;
  const rows = await db.select().from(payment).where(eq(payment.providerRef, invoiceId));
  return rows.find((r) => r.method === 'crypto') ?? null;
}

/**
 * One IPN's effect, in one transaction: the payment row is locked first (every IPN of a
 * payment waits for the one before), then the event is marked (a replay stops there), then the
 * status change or credit. The mark and the effect commit together.
 */
async function applyIpn(
  tx: Tx,
  paymentId: string,
  ipn: Ipn,
  ids: { eventId: string; npPaymentId: string | null; paidText: string },
): Promise<IpnOutcome> {
  const [row] = await tx.select().from(payment).where(eq(payment.id, paymentId)).for('update');
  if (!row) throw new Error(`payment ${paymentId} vanished`);
  const status = ipn.payment_status;

  // The invoice's price, signed by NOWPayments, must be ours. While the payment is open it is
  // exactly amount + fee; once credited, `amount` is what was credited, and the invoice's price
  // minus the fee gives back the amount asked.
  const price = toScaled(ipn.price_amount ?? null, 2);
  const currency = (ipn.price_currency ?? '').toLowerCase();
  if (currency !== 'usd') return { kind: 'mismatch', reason: `price currency ${currency || '-'}` };
  if (price === null) return { kind: 'mismatch', reason: `price ${String(ipn.price_amount)}` };
  const open = row.status === 'pending';
  if (open && price !== row.amount + row.fee)
    return {
      kind: 'mismatch',
      reason: `price ${formatAmount(price)} but the payment is ${formatAmount(row.amount + row.fee)}`,
    };
  const base = open ? row.amount : price - row.fee;
  if (base <= 0n) return { kind: 'mismatch', reason: `price ${formatAmount(price)} under the fee` };

  const crediting = status === 'finished' || status === 'partially_paid';
  const coins = crediting ? coinsOf(ipn) : null;
  if (crediting && !coins)
    return {
      kind: 'mismatch',
      reason: `amounts ${String(ipn.actually_paid)} of ${String(ipn.pay_amount)}`,
    };

  const marked = await tx
    .insert(processedEvent)
    .values({ provider: 'nowpayments', eventId: ids.eventId, paymentId: row.id })
    .onConflictDoNothing()
    .returning({ eventId: processedEvent.eventId });
  if (marked.length === 0) return { kind: 'replay' };

  /** Keeps the furthest status seen (and the provider's payment id). */
  async function track(): Promise<void> {
    if (rankOf(status) < rankOf(row!.providerStatus)) return;
    await tx
      .update(payment)
      .set({
        providerStatus: status,
        ...(ids.npPaymentId ? { providerPaymentId: ids.npPaymentId } : {}),
        updatedAt: new Date(),
      })
      .where(eq(payment.id, paymentId));
  }

  switch (status) {
    case 'waiting':
    case 'confirming':
    case 'confirmed':
    case 'sending':
      if (!open) return { kind: 'ignored', reason: `${status} after ${row.status}` };
      await track();
      return { kind: 'noted' };
    case 'partially_paid':
    case 'finished': {
      if (!coins) throw new Error('unreachable: crediting IPN without amounts');
      const credit = creditFor(base, coins);
      if (open) {
        if (credit === 0n) {
          const note = dustNote(coins);
          await tx
            .update(payment)
            .set({
              note,
              providerStatus: status,
              ...(ids.npPaymentId ? { providerPaymentId: ids.npPaymentId } : {}),
              // A finished payment gets nothing more: close it. A partial one may still grow.
              ...(status === 'finished' ? { status: 'expired' } : {}),
              updatedAt: new Date(),
            })
            .where(eq(payment.id, paymentId));
          return { kind: 'dust', note };
        }
        const note = noteFor(coins, credit, base, false);
        const settled = await settleTopup(tx, paymentId, {
          credit,
          ...(note ? { note } : {}),
          ...(ids.npPaymentId ? { providerPaymentId: ids.npPaymentId } : {}),
          providerStatus: status,
        });
        if (settled.kind === 'credited')
          return {
            kind: 'credited',
            payment: settled.payment,
            credited: credit,
            partial: credit < base,
          };
        if (settled.kind === 'held') return { kind: 'held', payment: settled.payment };
        return { kind: 'ignored', reason: `payment ${settled.payment.status}` };
      }
      // Already credited (a partial payment, or this one out of order): only more counts.
      if (row.status !== 'completed' || row.reversedAmount > 0n)
        return { kind: 'unpaid-money', reason: `${status} after ${row.status}` };
      const extra = credit - row.amount;
      if (extra <= 0n) {
        await track();
        return { kind: 'ignored', reason: 'no more than already credited' };
      }
      const supplemented = await supplementTopup(
        tx,
        paymentId,
        extra,
        `nowpayments:${ids.npPaymentId ?? '-'}:${ids.paidText}`,
        noteFor(coins, credit, base, true),
      );
      if (!supplemented.credited) return { kind: 'ignored', reason: 'supplement already made' };
      await track();
      return { kind: 'supplemented', payment: supplemented.payment, credited: extra };
    }
    case 'failed':
    case 'expired': {
      if (!open) return { kind: 'ignored', reason: `${status} after ${row.status}` };
      await tx
        .update(payment)
        .set({
          status: 'expired',
          providerStatus: status,
          ...(ids.npPaymentId ? { providerPaymentId: ids.npPaymentId } : {}),
          updatedAt: new Date(),
        })
        .where(eq(payment.id, paymentId));
      return { kind: 'expired' };
    }
    case 'refunded': {
      const reversed = await reverseTopup(tx, paymentId, {
        amount: null,
        key: `refunded:${ids.npPaymentId ?? paymentId}`,
        reason: REFUND_REASON,
      });
      await track();
      return reversed.kind === 'debited'
        ? {
            kind: 'reversed',
            detail: `debited ${formatAmount(reversed.debited)}${reversed.flagged ? ', account flagged' : ''}`,
          }
        : { kind: 'reversed', detail: reversed.kind };
    }
    default:
      return { kind: 'ignored', reason: `unknown status ${status}` };
  }
}

/** E-mails the customer once a credit has committed; a failure is logged and changes nothing. */
function notifyCredited(
  deps: CryptoDeps,
  credited: PaymentRow,
  amount: Cents,
  kind: 'full' | 'partial' | 'supplement',
): void {
  mailAfterCommit(deps, 'nowpayments: payment credited', { paymentId: credited.id }, async () => {
    const [customer] = await deps.db
      .select({ email: userTable.email, name: userTable.name })
      .from(userTable)
      .where(eq(userTable.id, credited.userId));
    if (!customer) throw new Error(`user ${credited.userId} not found`);
    const { available } = await balances(deps.db, credited.userId);
    return cryptoCreditedEmail({
      appName: deps.env.APP_NAME,
      appUrl: deps.env.APP_URL,
      to: customer.email,
      name: customer.name,
      amount,
      balance: available,
      kind,
      note: credited.note,
    });
  });
}
