// The payment gateways' contracts (docs/domain.md "Payment gateways"): PayPal, crypto
// (NOWPayments) and Mercado Pago top-ups, the methods list with fees and limits, fraud holds,
// reversals, numbered receipts and the admin's settings for all of them.
import { z } from 'zod';
import { parseAmount } from '../money';
import { parsePercent, parseRate } from '../fees';
import { BalanceSchema, DateTimeSchema, MoneySchema } from './common';
import {
  AmountInputSchema,
  AmountSchema,
  GATEWAY_METHODS,
  PAYMENT_METHODS,
  PaymentDtoSchema,
} from './wallet';

// ─── Customer: starting a top-up ─────────────────────────────────────────────────────────────

/** POST /api/payments/paypal|crypto|mercadopago: the amount to credit (the fee is added on top). */
export const GatewayTopupRequestSchema = z.object(
  { amount: AmountSchema },
  { error: 'Envía el importe, por ejemplo { "amount": "25.00" }.' },
);
export type GatewayTopupRequest = z.infer<typeof GatewayTopupRequestSchema>;

/** POST /api/payments/crypto may name the coin to pay with (NOWPayments' code, e.g. "usdttrc20"). */
export const CryptoTopupRequestSchema = GatewayTopupRequestSchema.extend({
  payCurrency: z
    .string()
    .trim()
    .toLowerCase()
    .regex(/^[a-z0-9]{2,20}$/, 'Elige una moneda válida (por ejemplo usdttrc20).')
    .optional(),
});
export type CryptoTopupRequest = z.infer<typeof CryptoTopupRequestSchema>;

/** The forms on /addfunds: the amount as typed («25,50»). */
export const GatewayTopupTypedSchema = z.object({ amount: AmountInputSchema });

/** 201 from POST /api/payments/paypal: our payment id and PayPal's approval page. */
export const PaypalTopupSchema = z.strictObject({ id: z.uuid(), approveUrl: z.url() });
export type PaypalTopup = z.infer<typeof PaypalTopupSchema>;

/** 201 from POST /api/payments/crypto: our payment id and the NOWPayments invoice page. */
export const CryptoTopupSchema = z.strictObject({ id: z.uuid(), invoiceUrl: z.url() });
export type CryptoTopup = z.infer<typeof CryptoTopupSchema>;

/** 201 from POST /api/payments/mercadopago: our payment id and Checkout Pro's page. */
export const MercadoPagoTopupSchema = z.strictObject({ id: z.uuid(), initPoint: z.url() });
export type MercadoPagoTopup = z.infer<typeof MercadoPagoTopupSchema>;

/**
 * The answer of POST /api/payments/paypal/:id/capture and GET /api/payments/:id: the top-up as
 * it stands (completed, «En revisión», still pending…) and the balance after.
 */
export const TopupResultSchema = z.strictObject({
  payment: PaymentDtoSchema,
  balance: BalanceSchema,
});
export type TopupResult = z.infer<typeof TopupResultSchema>;

// ─── Customer: the methods ───────────────────────────────────────────────────────────────────

export const FeeDtoSchema = z.strictObject({
  /** Percentage of the amount, "2.90" = 2.90 %. */
  percent: z.string().regex(/^\d{1,2}\.\d{2}$/),
  /** Fixed part in USD. */
  fixed: MoneySchema,
});
export type FeeDto = z.infer<typeof FeeDtoSchema>;

/** One way to top up, as GET /api/payment-methods lists it. */
export const PaymentMethodDtoSchema = z.strictObject({
  /** "stripe", "paypal", "crypto", "mercadopago", or "manual:<uuid>" for a manual method. */
  id: z.string(),
  method: z.enum(PAYMENT_METHODS),
  name: z.string(),
  fee: FeeDtoSchema,
  /** Limits of the amount credited, in USD. */
  minAmount: MoneySchema,
  maxAmount: MoneySchema,
  /** The currency the customer is charged in ("USD"; Mercado Pago: MERCADOPAGO_CURRENCY). */
  currency: z.string().regex(/^[A-Z]{3}$/),
  /** Units of `currency` per US dollar when it is not USD (decimal string), else null. */
  rate: z.string().nullable(),
  /** Manual methods: how to pay. */
  instructions: z.string().nullable(),
});
export type PaymentMethodDto = z.infer<typeof PaymentMethodDtoSchema>;

/** GET /api/payment-methods: every enabled method, automatic first. */
export const PaymentMethodListSchema = z.strictObject({ items: z.array(PaymentMethodDtoSchema) });
export type PaymentMethodList = z.infer<typeof PaymentMethodListSchema>;

// ─── Receipts ────────────────────────────────────────────────────────────────────────────────

export const RECEIPT_NUMBER_PATTERN = /^R-\d{4}-\d{6,}$/;

export const ReceiptDtoSchema = z.strictObject({
  id: z.uuid(),
  /** R-2026-000123: no gaps within a year. */
  number: z.string().regex(RECEIPT_NUMBER_PATTERN),
  paymentId: z.uuid(),
  method: z.enum(PAYMENT_METHODS),
  methodName: z.string(),
  description: z.string(),
  /** Credited to the balance. */
  amount: MoneySchema,
  fee: MoneySchema,
  /** amount + fee, in USD. */
  total: MoneySchema,
  /** What was charged in another currency (Mercado Pago), e.g. "10455.00" ARS; else null. */
  chargedAmount: MoneySchema.nullable(),
  chargedCurrency: z.string().nullable(),
  customer: z.strictObject({ id: z.string(), name: z.string(), email: z.string() }),
  issuedAt: DateTimeSchema,
});
export type ReceiptDto = z.infer<typeof ReceiptDtoSchema>;

/** GET /api/receipts (the customer's) and GET /api/admin/receipts (finance, JSON). */
export const ReceiptListSchema = z.strictObject({
  items: z.array(ReceiptDtoSchema),
  nextCursor: z.string().nullable(),
});
export type ReceiptList = z.infer<typeof ReceiptListSchema>;

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** GET /api/admin/receipts?from=&to=&format=csv (days inclusive, in the shop's time zone). */
export const AdminReceiptsQuerySchema = z.object({
  from: z.string().regex(DAY, 'La fecha debe tener la forma AAAA-MM-DD.').optional(),
  to: z.string().regex(DAY, 'La fecha debe tener la forma AAAA-MM-DD.').optional(),
  format: z.enum(['json', 'csv'], { error: 'El formato debe ser json o csv.' }).default('json'),
  cursor: z.string().max(200).optional(),
});

/** GET /api/receipts?cursor= */
export const ReceiptsQuerySchema = z.object({ cursor: z.string().max(200).optional() });

// ─── Admin: fees, limits, holds, rate, shop details ──────────────────────────────────────────

export const PercentSchema = z
  .string({ error: 'Escribe el porcentaje.' })
  .trim()
  .refine(
    (v) => parsePercent(v) !== null,
    'Escribe un porcentaje entre 0 y 50, con hasta dos decimales (por ejemplo 2.90).',
  );

/** A fixed fee: zero allowed. */
export const FixedFeeSchema = z
  .string({ error: 'Escribe la comisión fija.' })
  .trim()
  .refine((v) => {
    const cents = parseAmount(v);
    return cents !== null && cents >= 0n;
  }, 'Escribe una comisión fija válida, con hasta dos decimales (por ejemplo 0.30).');

/** An automatic method's settings as the admin sees them. */
export const GatewaySettingDtoSchema = z.strictObject({
  method: z.enum(GATEWAY_METHODS),
  name: z.string(),
  /** Configured on the server (its variables are set): customers see it. */
  enabled: z.boolean(),
  fee: FeeDtoSchema,
  minAmount: MoneySchema,
  maxAmount: MoneySchema,
  updatedAt: DateTimeSchema.nullable(),
});
export type GatewaySettingDto = z.infer<typeof GatewaySettingDtoSchema>;

/** GET /api/admin/payment-methods. */
export const GatewaySettingListSchema = z.strictObject({
  items: z.array(GatewaySettingDtoSchema),
});
export type GatewaySettingList = z.infer<typeof GatewaySettingListSchema>;

export const MIN_OVER_MAX = 'El máximo debe ser mayor o igual que el mínimo.';

/** PATCH /api/admin/payment-methods/:method: any subset. */
export const UpdateGatewaySettingSchema = z
  .object({
    feePercent: PercentSchema.optional(),
    feeFixed: FixedFeeSchema.optional(),
    minAmount: AmountSchema.optional(),
    maxAmount: AmountSchema.optional(),
  })
  .refine((v) => Object.values(v).some((x) => x !== undefined), {
    message: 'Indica al menos un cambio.',
    path: ['form'],
  })
  .refine(
    (v) => {
      if (v.minAmount === undefined || v.maxAmount === undefined) return true;
      const min = parseAmount(v.minAmount);
      const max = parseAmount(v.maxAmount);
      return min === null || max === null || min <= max;
    },
    { message: MIN_OVER_MAX, path: ['maxAmount'] },
  );
export type UpdateGatewaySettingInput = z.infer<typeof UpdateGatewaySettingSchema>;

export const GatewayMethodParamSchema = z.object({
  method: z.enum(GATEWAY_METHODS, {
    error: 'El método debe ser stripe, paypal, crypto o mercadopago.',
  }),
});

/** The shop's payment settings (GET /api/admin/payment-settings). */
export const PaymentSettingsDtoSchema = z.strictObject({
  /** First card or PayPal top-up of an account above this waits for finance; null = no hold. */
  holdThreshold: MoneySchema.nullable(),
  /** MERCADOPAGO_CURRENCY, null when Mercado Pago is not configured. */
  mercadopagoCurrency: z.string().nullable(),
  /** Units of that currency per US dollar; null until the admin sets it. */
  mercadopagoRate: z.string().nullable(),
  mercadopagoRateUpdatedAt: DateTimeSchema.nullable(),
  shopName: z.string(),
  shopTaxId: z.string(),
  shopAddress: z.string(),
});
export type PaymentSettingsDto = z.infer<typeof PaymentSettingsDtoSchema>;

const shopText = (label: string, max: number) =>
  z
    .string({ error: `Escribe ${label}.` })
    .trim()
    .max(max, `No puede tener más de ${max} caracteres.`);

/** PATCH /api/admin/payment-settings: any subset; holdThreshold null turns the hold off. */
export const UpdatePaymentSettingsSchema = z
  .object({
    holdThreshold: z
      .string()
      .trim()
      .refine((v) => {
        const cents = parseAmount(v);
        return cents !== null && cents >= 0n;
      }, 'Escribe un importe válido, con hasta dos decimales (por ejemplo 100.00).')
      .nullable()
      .optional(),
    mercadopagoRate: z
      .string()
      .trim()
      .refine(
        (v) => parseRate(v) !== null,
        'Escribe el tipo de cambio: unidades de la moneda por dólar, con hasta seis decimales (por ejemplo 1045.50).',
      )
      .optional(),
    shopName: shopText('el nombre del negocio', 120).optional(),
    shopTaxId: shopText('la identificación fiscal', 40).optional(),
    shopAddress: shopText('la dirección', 300).optional(),
  })
  .refine((v) => Object.values(v).some((x) => x !== undefined), {
    message: 'Indica al menos un cambio.',
    path: ['form'],
  });
export type UpdatePaymentSettingsInput = z.infer<typeof UpdatePaymentSettingsSchema>;

// ─── Admin: held top-ups and flagged accounts ────────────────────────────────────────────────

/** A top-up waiting for finance (fraud hold) or any top-up in the finance list. */
export const AdminPaymentDtoSchema = z.strictObject({
  ...PaymentDtoSchema.shape,
  customer: z.strictObject({ id: z.string(), name: z.string(), email: z.string() }),
  holdReason: z.string().nullable(),
  reversedAmount: MoneySchema,
  providerRef: z.string().nullable(),
});
export type AdminPaymentDto = z.infer<typeof AdminPaymentDtoSchema>;

/** GET /api/admin/payments/review. */
export const AdminPaymentListSchema = z.strictObject({ items: z.array(AdminPaymentDtoSchema) });
export type AdminPaymentList = z.infer<typeof AdminPaymentListSchema>;

/** POST /api/admin/payments/:id/approve|reject: the top-up after, and the customer's balance. */
export const AdminPaymentResultSchema = z.strictObject({
  payment: AdminPaymentDtoSchema,
  balance: BalanceSchema,
});
export type AdminPaymentResult = z.infer<typeof AdminPaymentResultSchema>;

/** A customer blocked from ordering by a reversed top-up. */
export const AccountFlagDtoSchema = z.strictObject({
  id: z.uuid(),
  customer: z.strictObject({ id: z.string(), name: z.string(), email: z.string() }),
  paymentId: z.uuid().nullable(),
  reason: z.string(),
  /** The customer's balance now (negative while they owe). */
  balance: BalanceSchema,
  createdAt: DateTimeSchema,
});
export type AccountFlagDto = z.infer<typeof AccountFlagDtoSchema>;

/** GET /api/admin/account-flags: the open ones. */
export const AccountFlagListSchema = z.strictObject({ items: z.array(AccountFlagDtoSchema) });
export type AccountFlagList = z.infer<typeof AccountFlagListSchema>;

/** The Spanish refusal of an order while the account is flagged. */
export const ACCOUNT_BLOCKED_MESSAGE =
  'Tu cuenta no puede hacer órdenes porque se revirtió un pago acreditado. Contacta con soporte.';
