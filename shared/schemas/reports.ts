// Reports (docs/domain.md, Cost, margin and reports): revenue, cost, margin, orders and refunds
// of the orders settled in a date range, broken down and by period, with top customers and
// top-ups by method. One shape for the web page, the REST API and the CSV.
import { z } from 'zod';
import { MoneySchema } from './common';

export const REPORT_PERIODS = ['day', 'week', 'month'] as const;
export type ReportPeriod = (typeof REPORT_PERIODS)[number];
export const REPORT_PERIOD_LABELS: Record<ReportPeriod, string> = {
  day: 'Día',
  week: 'Semana',
  month: 'Mes',
};

export const REPORT_BREAKDOWNS = ['category', 'service', 'supplier', 'customer', 'group'] as const;
export type ReportBreakdown = (typeof REPORT_BREAKDOWNS)[number];
export const REPORT_BREAKDOWN_LABELS: Record<ReportBreakdown, string> = {
  category: 'Categoría',
  service: 'Servicio',
  supplier: 'Proveedor',
  customer: 'Cliente',
  group: 'Grupo de precios',
};

/** The longest range a report covers, in days. */
export const REPORT_MAX_DAYS = 1100;

const DAY = /^\d{4}-\d{2}-\d{2}$/;

function validDay(v: string): boolean {
  if (!DAY.test(v)) return false;
  const t = Date.parse(`${v}T00:00:00Z`);
  return (
    Number.isFinite(t) &&
    new Date(t).toISOString().slice(0, 10) === v &&
    t >= Date.UTC(2000, 0, 1) &&
    t <= Date.UTC(9999, 0, 1)
  );
}

const dayQuery = (description: string, example: string) =>
  z
    .string()
    .max(10, 'La fecha no es válida: usa el formato 2026-05-01.')
    .refine(validDay, 'La fecha no es válida: usa el formato 2026-05-01.')
    .meta({ description, example, format: 'date' });

/** GET /api/admin/reports. */
export const ReportQuerySchema = z
  .object({
    from: dayQuery('Primer día del informe (incluido), `AAAA-MM-DD`, en UTC.', '2026-05-01'),
    to: dayQuery('Último día del informe (incluido), `AAAA-MM-DD`, en UTC.', '2026-05-31'),
    period: z
      .enum(REPORT_PERIODS)
      .optional()
      .describe('Periodo de la serie: `day` (por defecto), `week` (lunes a domingo) o `month`.'),
    by: z
      .enum(REPORT_BREAKDOWNS)
      .optional()
      .describe(
        'Desglose de `rows`: `category` (por defecto), `service`, `supplier`, `customer` o `group`.',
      ),
    format: z
      .enum(['json', 'csv', 'excel'])
      .optional()
      .describe(
        '`json` (por defecto); `csv`: el desglose en CSV simple (`,`, importes como en la API); `excel`: el mismo CSV como lo abre un Excel en español (BOM, `;`, coma decimal).',
      ),
  })
  .refine((q) => !validDay(q.from) || !validDay(q.to) || q.from <= q.to, {
    message: 'La fecha inicial debe ser anterior o igual a la final.',
    path: ['to'],
  })
  .refine(
    (q) =>
      !validDay(q.from) ||
      !validDay(q.to) ||
      (Date.parse(q.to) - Date.parse(q.from)) / 86_400_000 < REPORT_MAX_DAYS,
    { message: `El informe abarca como mucho ${REPORT_MAX_DAYS} días.`, path: ['to'] },
  );
export type ReportQuery = z.infer<typeof ReportQuerySchema>;

/** A signed amount: a margin can be negative ("-1.50"). */
export const SignedAmountStringSchema = z.string().regex(/^-?\d+\.\d{2}$/);

export const ReportFiguresSchema = z.strictObject({
  /** Captured order money, net of refunds. */
  revenue: MoneySchema,
  /** What those orders cost us (unknown costs count as 0). */
  cost: MoneySchema,
  /** revenue − cost. */
  margin: SignedAmountStringSchema,
  /** Orders completed or partially delivered. */
  orders: z.number().int(),
  /** Money returned to customers (partial deliveries' undelivered share, rejected and cancelled orders). */
  refunds: MoneySchema,
});
export type ReportFigures = z.infer<typeof ReportFiguresSchema>;

export const ReportRowSchema = z.strictObject({
  key: z.string(),
  label: z.string(),
  ...ReportFiguresSchema.shape,
});
export type ReportRow = z.infer<typeof ReportRowSchema>;

export const ReportPointSchema = z.strictObject({
  /** The period's first day, `AAAA-MM-DD`. */
  period: z.string(),
  ...ReportFiguresSchema.shape,
});
export type ReportPoint = z.infer<typeof ReportPointSchema>;

export const TOPUP_METHODS = [
  'stripe',
  'paypal',
  'crypto',
  'mercadopago',
  'manual',
  'voucher',
] as const;
export type TopupMethod = (typeof TOPUP_METHODS)[number];
export const TOPUP_METHOD_LABELS: Record<TopupMethod, string> = {
  stripe: 'Tarjeta',
  paypal: 'PayPal',
  crypto: 'Criptomonedas',
  mercadopago: 'Mercado Pago',
  manual: 'Pago manual',
  voucher: 'Cupón',
};

export const ReportTopupSchema = z.strictObject({
  method: z.enum(TOPUP_METHODS),
  label: z.string(),
  amount: MoneySchema,
  count: z.number().int(),
});
export type ReportTopup = z.infer<typeof ReportTopupSchema>;

export const ReportSchema = z.strictObject({
  from: z.string(),
  to: z.string(),
  period: z.enum(REPORT_PERIODS),
  by: z.enum(REPORT_BREAKDOWNS),
  /** The breakdown, by revenue (highest first). */
  rows: z.array(ReportRowSchema),
  totals: ReportFiguresSchema,
  /** Every period of the range, in order (empty ones with zeros). */
  series: z.array(ReportPointSchema),
  /** The ten customers with the most revenue. */
  topCustomers: z.array(ReportRowSchema),
  /** Top-ups in the range by method (money in). */
  topups: z.array(ReportTopupSchema),
});
export type Report = z.infer<typeof ReportSchema>;

/** Staff order shapes: cost and margin, for admin and finance only (absent for support). */
export const OrderCostFieldsSchema = z.object({
  /** What the order cost us (net of partial deliveries); null when unknown. */
  cost: MoneySchema.nullable().optional(),
  /** What it charged (net of refunds) minus its cost; null when the cost is unknown. */
  margin: SignedAmountStringSchema.nullable().optional(),
});
