import { and, eq } from 'drizzle-orm';
import { quote, type Quote } from '../../../shared/fees';
import { formatUsd, parseAmount, type Cents } from '../../../shared/money';
import {
  AmountSchema,
  GATEWAY_METHODS,
  PAYMENT_METHOD_LABELS,
  type GatewayMethod,
} from '../../../shared/schemas/wallet';
import type { Db, Tx } from '../../db/client';
import { gatewaySetting, payment } from '../../db/schema/payments';
import type { Env } from '../../env';
import { AppError } from '../../lib/errors';
import type { PaymentRow } from './payments.service';

/** What a method costs and allows: the fee on top of the amount, and the amount's limits. */
export type MethodTerms = {
  feePercentBp: number;
  feeFixed: Cents;
  minAmount: Cents;
  maxAmount: Cents;
  updatedAt: Date | null;
};

/** Limits of a gateway the admin has not set yet (Stripe's come from STRIPE_MIN/MAX_AMOUNT). */
const DEFAULT_MIN = 500n;
const DEFAULT_MAX = 100_000n;

/** Whether each automatic method is configured on this server. */
export function gatewayEnabled(env: Env, method: GatewayMethod): boolean {
  switch (method) {
    case 'stripe':
      return env.stripe !== null;
    case 'paypal':
      return env.paypal !== null;
    case 'crypto':
      return env.nowpayments !== null;
    case 'mercadopago':
      return env.mercadopago !== null;
  }
}

function defaultsOf(env: Env, method: GatewayMethod): MethodTerms {
  if (method === 'stripe' && env.stripe)
    return {
      feePercentBp: 0,
      feeFixed: 0n,
      minAmount: env.stripe.minAmount,
      maxAmount: env.stripe.maxAmount,
      updatedAt: null,
    };
  return {
    feePercentBp: 0,
    feeFixed: 0n,
    minAmount: DEFAULT_MIN,
    maxAmount: DEFAULT_MAX,
    updatedAt: null,
  };
}

/** The admin's fee and limits of one automatic method, or its defaults. */
export async function gatewayTerms(
  db: Db | Tx,
  env: Env,
  method: GatewayMethod,
): Promise<MethodTerms> {
  const [row] = await db.select().from(gatewaySetting).where(eq(gatewaySetting.method, method));
  if (!row) return defaultsOf(env, method);
  return {
    feePercentBp: row.feePercentBp,
    feeFixed: row.feeFixed,
    minAmount: row.minAmount,
    maxAmount: row.maxAmount,
    updatedAt: row.updatedAt,
  };
}

/** Every automatic method's terms (enabled or not), in the order customers see them. */
export async function allGatewayTerms(
  db: Db | Tx,
  env: Env,
): Promise<{ method: GatewayMethod; enabled: boolean; terms: MethodTerms }[]> {
  const rows = await db.select().from(gatewaySetting);
  return GATEWAY_METHODS.map((method) => {
    const row = rows.find((r) => r.method === method);
    return {
      method,
      enabled: gatewayEnabled(env, method),
      terms: row
        ? {
            feePercentBp: row.feePercentBp,
            feeFixed: row.feeFixed,
            minAmount: row.minAmount,
            maxAmount: row.maxAmount,
            updatedAt: row.updatedAt,
          }
        : defaultsOf(env, method),
    };
  });
}

/** "con tarjeta", "con PayPal": how the limit messages name a method. */
function withMethod(method: GatewayMethod): string {
  if (method === 'stripe') return 'con tarjeta';
  if (method === 'crypto') return 'con criptomonedas';
  return `con ${PAYMENT_METHOD_LABELS[method]}`;
}

/**
 * The customer's amount (what the balance receives) as cents within the method's limits, and
 * the quote: the fee and what they pay. 400 with a Spanish field message otherwise.
 */
export function quoteTopup(method: GatewayMethod, terms: MethodTerms, input: string): Quote {
  const parsed = AmountSchema.safeParse(input);
  const cents = parsed.success ? parseAmount(parsed.data) : null;
  if (!parsed.success || cents === null) {
    throw new AppError('VALIDATION_FAILED', undefined, {
      amount: parsed.error?.issues[0]?.message ?? 'Escribe un importe válido.',
    });
  }
  if (cents < terms.minAmount)
    throw new AppError('VALIDATION_FAILED', undefined, {
      amount: `El mínimo ${withMethod(method)} es ${formatUsd(terms.minAmount)}.`,
    });
  if (cents > terms.maxAmount)
    throw new AppError('VALIDATION_FAILED', undefined, {
      amount: `El máximo ${withMethod(method)} es ${formatUsd(terms.maxAmount)}.`,
    });
  return quote(cents, terms);
}

/**
 * Starts a gateway top-up: the pending payment row for `amount` with its fee (and, for a
 * charge in another currency, what is charged and at which rate). Nothing is credited here.
 */
export async function startGatewayTopup(
  db: Db,
  input: {
    userId: string;
    method: GatewayMethod;
    quote: Quote;
    charged?: { amount: Cents; currency: string; rate: string } | null;
  },
): Promise<PaymentRow> {
  const [row] = await db
    .insert(payment)
    .values({
      userId: input.userId,
      method: input.method,
      status: 'pending',
      amount: input.quote.amount,
      fee: input.quote.fee,
      chargedAmount: input.charged?.amount ?? null,
      chargedCurrency: input.charged?.currency ?? null,
      exchangeRate: input.charged?.rate ?? null,
    })
    .returning();
  if (!row) throw new Error('payment insert returned no row');
  return row;
}

/** Marks a top-up that never reached the provider (its page could not be created) as expired. */
export async function abandonTopup(db: Db, paymentId: string): Promise<void> {
  await db
    .update(payment)
    .set({ status: 'expired', updatedAt: new Date() })
    .where(and(eq(payment.id, paymentId), eq(payment.status, 'pending')));
}
