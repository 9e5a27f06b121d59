// Everything around the payment methods (docs/domain.md "Payment gateways"): the methods list
// customers see with fees and limits, a top-up's state for the return pages, the admin's fees,
// limits and payment settings, the top-ups held for finance («En revisión») and the accounts
// flagged by a reversed top-up.
import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { formatPercent, parsePercent, parseRate } from '../../../shared/fees';
import { formatAmount, parseAmount, type Cents } from '../../../shared/money';
import {
  MIN_OVER_MAX,
  type AccountFlagDto,
  type AdminPaymentDto,
  type AdminPaymentResult,
  type GatewaySettingDto,
  type PaymentMethodDto,
  type PaymentSettingsDto,
  type TopupResult,
  type UpdateGatewaySettingInput,
  type UpdatePaymentSettingsInput,
} from '../../../shared/schemas/payments';
import {
  PAYMENT_METHOD_LABELS,
  type GatewayMethod,
  type PaymentMethod,
} from '../../../shared/schemas/wallet';
import type { Db, Tx } from '../../db/client';
import { user } from '../../db/schema/auth';
import { ledgerAccount } from '../../db/schema/ledger';
import {
  accountFlag,
  gatewaySetting,
  manualMethod,
  payment,
  paymentSettings,
} from '../../db/schema/payments';
import type { Env } from '../../env';
import { AppError } from '../../lib/errors';
import type { Logger } from '../../lib/logger';
import type { Mailer } from '../../lib/mail';
import { mailAfterCommit } from '../../lib/notify';
import { recordAudit } from '../audit/audit.service';
import { balances } from '../ledger/ledger.service';
import { heldTopupApprovedEmail, heldTopupRejectedEmail } from './payments.emails';
import {
  completePayment,
  paymentDto,
  receiptsOf,
  rejectPayment,
  toPaymentDto,
  type PaymentRow,
} from './payments.service';
import { allGatewayTerms, gatewayEnabled, gatewayTerms, type MethodTerms } from './topup-terms';

const TOPUP_NOT_FOUND = 'Esa recarga no existe.';
const NOT_IN_REVIEW = 'Esta recarga no está en revisión.';
const OWN_TOPUP = 'No puedes revisar una recarga tuya.';
const FLAG_NOT_FOUND = 'Esa alerta no existe.';
const FLAG_CLEARED = 'Esta alerta ya se resolvió.';
const LIST_LIMIT = 200;

/** Where the finance e-mails go from. */
export type PaymentNotifier = {
  mailer: Mailer;
  logger: Logger;
  appName: string;
  appUrl: string;
};

function feeDto(terms: { feePercentBp: number; feeFixed: Cents }) {
  return { percent: formatPercent(terms.feePercentBp), fixed: formatAmount(terms.feeFixed) };
}

async function settingsRow(db: Db | Tx) {
  const [row] = await db.select().from(paymentSettings).where(eq(paymentSettings.id, 1));
  return row ?? null;
}

// ─── Customer: the methods and a top-up's state ──────────────────────────────────────────────

/**
 * Every method a customer can top up with now: the configured automatic ones (Stripe, PayPal,
 * crypto, Mercado Pago, in that order; Mercado Pago only once it has an exchange rate), then the
 * active manual methods. Vouchers are not a payment method.
 */
export async function listPaymentMethods(db: Db, env: Env): Promise<PaymentMethodDto[]> {
  const [gateways, settings, manual] = await Promise.all([
    allGatewayTerms(db, env),
    settingsRow(db),
    db
      .select()
      .from(manualMethod)
      .where(eq(manualMethod.active, true))
      .orderBy(asc(manualMethod.sortOrder), asc(manualMethod.name), asc(manualMethod.id)),
  ]);
  const items: PaymentMethodDto[] = [];
  for (const { method, enabled, terms } of gateways) {
    if (!enabled) continue;
    let currency = 'USD';
    let rate: string | null = null;
    if (method === 'mercadopago') {
      const mp = env.mercadopago;
      if (!mp) continue;
      rate = settings?.mercadopagoRate ?? mp.initialRate;
      // Without a rate nothing can be charged in the local currency.
      if (rate === null || parseRate(rate) === null) continue;
      currency = mp.currency;
    }
    items.push({
      id: method,
      method,
      name: PAYMENT_METHOD_LABELS[method],
      fee: feeDto(terms),
      minAmount: formatAmount(terms.minAmount),
      maxAmount: formatAmount(terms.maxAmount),
      currency,
      rate,
      instructions: null,
    });
  }
  for (const m of manual) {
    items.push({
      id: `manual:${m.id}`,
      method: 'manual',
      name: m.name,
      fee: feeDto(m),
      minAmount: formatAmount(m.minAmount),
      maxAmount: formatAmount(m.maxAmount),
      currency: 'USD',
      rate: null,
      instructions: m.instructions,
    });
  }
  return items;
}

/** One of the customer's own top-ups as it stands, with their balance (the return pages poll it). */
export async function topupResult(db: Db, userId: string, paymentId: string): Promise<TopupResult> {
  const [row] = await db
    .select()
    .from(payment)
    .where(and(eq(payment.id, paymentId), eq(payment.userId, userId)));
  if (!row) throw new AppError('NOT_FOUND', TOPUP_NOT_FOUND);
  const { available } = await balances(db, userId);
  return { payment: await toPaymentDto(db, row), balance: formatAmount(available) };
}

// ─── Admin: fees and limits of the automatic methods ─────────────────────────────────────────

function gatewaySettingDto(
  method: GatewayMethod,
  enabled: boolean,
  terms: MethodTerms,
): GatewaySettingDto {
  return {
    method,
    name: PAYMENT_METHOD_LABELS[method],
    enabled,
    fee: feeDto(terms),
    minAmount: formatAmount(terms.minAmount),
    maxAmount: formatAmount(terms.maxAmount),
    updatedAt: terms.updatedAt?.toISOString() ?? null,
  };
}

/** The four automatic methods with their fee and limits (`enabled`: configured on the server). */
export async function listGatewaySettings(db: Db, env: Env): Promise<GatewaySettingDto[]> {
  const all = await allGatewayTerms(db, env);
  return all.map((g) => gatewaySettingDto(g.method, g.enabled, g.terms));
}

function cents(text: string, field: string): Cents {
  const value = parseAmount(text);
  if (value === null)
    throw new AppError('VALIDATION_FAILED', undefined, { [field]: 'Escribe un importe válido.' });
  return value;
}

/**
 * Changes an automatic method's fee and limits (any subset), audited. The row is created with
 * the method's current terms (its defaults) the first time; min ≤ max is checked against what
 * is stored as well, under a per-method lock so two changes cannot cross.
 */
export async function updateGatewaySetting(
  db: Db,
  env: Env,
  adminId: string,
  method: GatewayMethod,
  input: UpdateGatewaySettingInput,
  ip: string,
): Promise<GatewaySettingDto> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${`gateway-setting:${method}`}))`);
    const current = await gatewayTerms(tx, env, method);
    const feePercentBp =
      input.feePercent === undefined ? current.feePercentBp : parsePercent(input.feePercent);
    if (feePercentBp === null)
      throw new AppError('VALIDATION_FAILED', undefined, {
        feePercent: 'Escribe un porcentaje válido.',
      });
    const feeFixed =
      input.feeFixed === undefined ? current.feeFixed : cents(input.feeFixed, 'feeFixed');
    const minAmount =
      input.minAmount === undefined ? current.minAmount : cents(input.minAmount, 'minAmount');
    const maxAmount =
      input.maxAmount === undefined ? current.maxAmount : cents(input.maxAmount, 'maxAmount');
    if (minAmount > maxAmount) {
      const field = input.maxAmount === undefined ? 'minAmount' : 'maxAmount';
      throw new AppError('VALIDATION_FAILED', undefined, { [field]: MIN_OVER_MAX });
    }
    const values = { feePercentBp, feeFixed, minAmount, maxAmount, updatedBy: adminId };
    const [row] = await tx
      .insert(gatewaySetting)
      .values({ method, ...values })
      .onConflictDoUpdate({
        target: gatewaySetting.method,
        set: { ...values, updatedAt: new Date() },
      })
      .returning();
    if (!row) throw new Error('gateway_setting upsert returned no row');
    const after = gatewaySettingDto(method, gatewayEnabled(env, method), row);
    await recordAudit(tx, {
      actorId: adminId,
      action: 'gateway_setting.update',
      targetType: 'gateway_setting',
      targetId: method,
      before: gatewaySettingDto(method, after.enabled, current),
      after,
      ipAddress: ip,
    });
    return after;
  });
}

// ─── Admin: payment settings ─────────────────────────────────────────────────────────────────

type SettingsRow = typeof paymentSettings.$inferSelect;

function paymentSettingsDto(env: Env, row: SettingsRow | null): PaymentSettingsDto {
  return {
    holdThreshold: row?.holdThreshold == null ? null : formatAmount(row.holdThreshold),
    mercadopagoCurrency: env.mercadopago?.currency ?? null,
    mercadopagoRate: row?.mercadopagoRate ?? null,
    mercadopagoRateUpdatedAt: row?.mercadopagoRateUpdatedAt?.toISOString() ?? null,
    shopName: row?.shopName ?? '',
    shopTaxId: row?.shopTaxId ?? '',
    shopAddress: row?.shopAddress ?? '',
  };
}

export async function getPaymentSettings(db: Db, env: Env): Promise<PaymentSettingsDto> {
  return paymentSettingsDto(env, await settingsRow(db));
}

/**
 * Changes the shop's payment settings (any subset), audited: `holdThreshold` null turns the
 * fraud hold off; a new Mercado Pago rate records when it was set.
 */
export async function updatePaymentSettings(
  db: Db,
  env: Env,
  adminId: string,
  input: UpdatePaymentSettingsInput,
  ip: string,
): Promise<PaymentSettingsDto> {
  return db.transaction(async (tx) => {
    // The migration inserts the single row; a database without it gets it here.
    await tx.insert(paymentSettings).values({ id: 1 }).onConflictDoNothing();
    const [current] = await tx
      .select()
      .from(paymentSettings)
      .where(eq(paymentSettings.id, 1))
      .for('update');
    const now = new Date();
    const [row] = await tx
      .update(paymentSettings)
      .set({
        ...(input.holdThreshold === undefined
          ? {}
          : {
              holdThreshold:
                input.holdThreshold === null ? null : cents(input.holdThreshold, 'holdThreshold'),
            }),
        ...(input.mercadopagoRate === undefined
          ? {}
          : { mercadopagoRate: input.mercadopagoRate, mercadopagoRateUpdatedAt: now }),
        ...(input.shopName === undefined ? {} : { shopName: input.shopName }),
        ...(input.shopTaxId === undefined ? {} : { shopTaxId: input.shopTaxId }),
        ...(input.shopAddress === undefined ? {} : { shopAddress: input.shopAddress }),
        updatedBy: adminId,
        updatedAt: now,
      })
      .where(eq(paymentSettings.id, 1))
      .returning();
    if (!row) throw new Error('payment_settings update returned no row');
    const after = paymentSettingsDto(env, row);
    await recordAudit(tx, {
      actorId: adminId,
      action: 'payment_settings.update',
      targetType: 'payment_settings',
      targetId: '1',
      before: paymentSettingsDto(env, current ?? null),
      after,
      ipAddress: ip,
    });
    return after;
  });
}

// ─── Admin: top-ups held for finance ─────────────────────────────────────────────────────────

type Customer = { id: string; name: string; email: string };

function adminPaymentDto(
  row: PaymentRow,
  customer: Customer,
  receipts: { id: string; number: string }[],
): AdminPaymentDto {
  return {
    ...paymentDto(row, PAYMENT_METHOD_LABELS[row.method as PaymentMethod], receipts),
    customer,
    holdReason: row.holdReason,
    reversedAmount: formatAmount(row.reversedAmount),
    // What finance looks up at the provider: the money movement, else the checkout.
    providerRef: row.providerPaymentId ?? row.providerRef,
  };
}

/** Top-ups paid and held for finance («En revisión»), oldest first. */
export async function listHeldTopups(db: Db): Promise<AdminPaymentDto[]> {
  const rows = await db
    .select({ payment, customer: { id: user.id, name: user.name, email: user.email } })
    .from(payment)
    .innerJoin(user, eq(user.id, payment.userId))
    .where(eq(payment.status, 'review'))
    .orderBy(asc(payment.createdAt), asc(payment.id))
    .limit(LIST_LIMIT);
  // Held top-ups are not credited: they have no receipts.
  return rows.map((r) => adminPaymentDto(r.payment, r.customer, []));
}

async function customerOf(db: Db | Tx, userId: string): Promise<Customer> {
  const [row] = await db
    .select({ id: user.id, name: user.name, email: user.email })
    .from(user)
    .where(eq(user.id, userId));
  if (!row) throw new Error(`payment owner ${userId} not found`);
  return row;
}

/** Loads a held top-up for review inside `tx`: 404 unknown, 403 the reviewer's own, 409 not held. */
async function heldForReview(tx: Tx, adminId: string, paymentId: string): Promise<PaymentRow> {
  const [row] = await tx.select().from(payment).where(eq(payment.id, paymentId));
  if (!row) throw new AppError('NOT_FOUND', TOPUP_NOT_FOUND);
  if (row.userId === adminId) throw new AppError('FORBIDDEN', OWN_TOPUP);
  if (row.status !== 'review') throw new AppError('CONFLICT', NOT_IN_REVIEW);
  return row;
}

async function adminResult(db: Db, row: PaymentRow): Promise<AdminPaymentResult> {
  const [customer, receipts, { available }] = await Promise.all([
    customerOf(db, row.userId),
    receiptsOf(db, [row.id]),
    balances(db, row.userId),
  ]);
  return {
    payment: adminPaymentDto(row, customer, receipts.get(row.id) ?? []),
    balance: formatAmount(available),
  };
}

/**
 * Approves a held top-up: credited exactly once (completePayment from 'review', with its
 * receipt) and audited in one transaction; a concurrent or repeated approval gets 409 and
 * moves nothing. The customer is e-mailed after the commit.
 */
export async function approveHeldTopup(
  db: Db,
  adminId: string,
  paymentId: string,
  ip: string,
  notify?: PaymentNotifier,
): Promise<AdminPaymentResult> {
  const row = await db.transaction(async (tx) => {
    const current = await heldForReview(tx, adminId, paymentId);
    const result = await completePayment(tx, paymentId, { from: ['review'], actorId: adminId });
    if (!result.credited) throw new AppError('CONFLICT', NOT_IN_REVIEW);
    await recordAudit(tx, {
      actorId: adminId,
      action: 'payment.approve_held',
      targetType: 'payment',
      targetId: paymentId,
      before: { status: current.status, amount: formatAmount(current.amount) },
      after: {
        status: result.payment.status,
        amount: formatAmount(result.payment.amount),
        userId: result.payment.userId,
        transferId: result.payment.transferId,
      },
      ipAddress: ip,
    });
    return result.payment;
  });
  const result = await adminResult(db, row);
  if (notify) {
    mailAfterCommit(notify, 'held top-up approved', { paymentId }, async () => {
      const customer = await customerOf(db, row.userId);
      const { available } = await balances(db, row.userId);
      return heldTopupApprovedEmail({
        appName: notify.appName,
        appUrl: notify.appUrl,
        to: customer.email,
        name: customer.name,
        amount: row.amount,
        methodName: PAYMENT_METHOD_LABELS[row.method as PaymentMethod],
        balance: available,
      });
    });
  }
  return result;
}

/**
 * Rejects a held top-up with a reason (nothing is credited; the shop refunds the payment through
 * the provider), audited; the customer is e-mailed after the commit.
 */
export async function rejectHeldTopup(
  db: Db,
  adminId: string,
  paymentId: string,
  reason: string,
  ip: string,
  notify?: PaymentNotifier,
): Promise<AdminPaymentResult> {
  const row = await db.transaction(async (tx) => {
    const current = await heldForReview(tx, adminId, paymentId);
    const result = await rejectPayment(tx, paymentId, reason, adminId, ['review']);
    if (!result.rejected) throw new AppError('CONFLICT', NOT_IN_REVIEW);
    await recordAudit(tx, {
      actorId: adminId,
      action: 'payment.reject_held',
      targetType: 'payment',
      targetId: paymentId,
      before: { status: current.status, amount: formatAmount(current.amount) },
      after: { status: result.payment.status, reason, userId: result.payment.userId },
      ipAddress: ip,
    });
    return result.payment;
  });
  if (notify) {
    mailAfterCommit(notify, 'held top-up rejected', { paymentId }, async () => {
      const customer = await customerOf(db, row.userId);
      return heldTopupRejectedEmail({
        appName: notify.appName,
        appUrl: notify.appUrl,
        to: customer.email,
        name: customer.name,
        amount: row.amount,
        methodName: PAYMENT_METHOD_LABELS[row.method as PaymentMethod],
        reason,
      });
    });
  }
  return adminResult(db, row);
}

// ─── Admin: accounts flagged by a reversed top-up ────────────────────────────────────────────

/** The open flags (customers blocked from ordering), oldest first, with each one's balance now. */
export async function listAccountFlags(db: Db): Promise<AccountFlagDto[]> {
  const rows = await db
    .select({
      flag: accountFlag,
      customer: { id: user.id, name: user.name, email: user.email },
    })
    .from(accountFlag)
    .innerJoin(user, eq(user.id, accountFlag.userId))
    .where(isNull(accountFlag.clearedAt))
    .orderBy(asc(accountFlag.createdAt), asc(accountFlag.id))
    .limit(LIST_LIMIT);
  const userIds = [...new Set(rows.map((r) => r.flag.userId))];
  const accounts =
    userIds.length === 0
      ? []
      : await db
          .select({ userId: ledgerAccount.userId, balance: ledgerAccount.balance })
          .from(ledgerAccount)
          .where(and(inArray(ledgerAccount.userId, userIds), eq(ledgerAccount.kind, 'available')));
  const balanceOf = new Map(accounts.map((a) => [a.userId, a.balance]));
  return rows.map((r) => flagDto(r.flag, r.customer, balanceOf.get(r.flag.userId) ?? 0n));
}

function flagDto(
  flag: typeof accountFlag.$inferSelect,
  customer: Customer,
  balance: Cents,
): AccountFlagDto {
  return {
    id: flag.id,
    customer,
    paymentId: flag.paymentId,
    reason: flag.reason,
    balance: formatAmount(balance),
    createdAt: flag.createdAt.toISOString(),
  };
}

/** Clears an open flag, audited: the customer can order again. 404 unknown, 409 already cleared. */
export async function clearAccountFlag(
  db: Db,
  adminId: string,
  flagId: string,
  ip: string,
): Promise<AccountFlagDto> {
  return db.transaction(async (tx) => {
    const [cleared] = await tx
      .update(accountFlag)
      .set({ clearedAt: new Date(), clearedBy: adminId })
      .where(and(eq(accountFlag.id, flagId), isNull(accountFlag.clearedAt)))
      .returning();
    if (!cleared) {
      const [exists] = await tx
        .select({ id: accountFlag.id })
        .from(accountFlag)
        .where(eq(accountFlag.id, flagId));
      throw exists
        ? new AppError('CONFLICT', FLAG_CLEARED)
        : new AppError('NOT_FOUND', FLAG_NOT_FOUND);
    }
    const { available } = await balances(tx, cleared.userId);
    const dto = flagDto(cleared, await customerOf(tx, cleared.userId), available);
    await recordAudit(tx, {
      actorId: adminId,
      action: 'account_flag.clear',
      targetType: 'account_flag',
      targetId: flagId,
      before: { clearedAt: null, userId: cleared.userId, reason: cleared.reason },
      after: { clearedAt: cleared.clearedAt?.toISOString() ?? null, userId: cleared.userId },
      ipAddress: ip,
    });
    return dto;
  });
}
