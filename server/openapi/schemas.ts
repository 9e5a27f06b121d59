// Every schema the OpenAPI document names, by component name: the zod schemas the routes parse
// requests with, and the zod schemas of what they answer. The types the code returns are
// checked against these at compile time (`same<…>()` below), so the document cannot drift.
import { z } from 'zod';
import { ApiErrorBodySchema } from '../../shared/error-codes';
import { serviceFieldListSchema, serviceFieldSchema } from '../../shared/fields';
import { UpdateProfileSchema } from '../../shared/schemas/auth';
import {
  CategorySlugSchema,
  ServiceDtoSchema,
  ServiceFieldSchema,
} from '../../shared/schemas/catalogue';
import { DateTimeSchema, MoneySchema } from '../../shared/schemas/common';
import { ContactSchema } from '../../shared/schemas/contact';
import { MeSchema, type Me } from '../../shared/schemas/me';
import {
  BulkLineResultSchema,
  CompleteOrderSchema,
  RejectOrderSchema,
  BulkOrderResultSchema,
  BulkOrderSchema,
  OrderDtoSchema,
  OrderEventDtoSchema,
  OrderSummarySchema,
  OrdersPageSchema,
  PlaceOrderSchema,
} from '../../shared/schemas/orders';
import {
  AdjustmentSchema,
  AmountSchema,
  MovementDtoSchema,
  MovementsPageSchema,
  PaymentDtoSchema,
  WalletDtoSchema,
} from '../../shared/schemas/wallet';
import type { adjustBalance } from '../features/admin/adjustments.service';
import type { CustomerSummary } from '../features/admin/users.service';
import {
  BulkPriceSchema,
  CreateServiceSchema,
  ReorderSchema,
  UpdateServiceSchema,
  type AdminServiceDto,
  type CategoryCountDto,
  type ServiceHistoryEntryDto,
} from '../features/catalogue/catalogue.schemas';
import type { bulkPriceChange } from '../features/catalogue/catalogue.service';
import {
  CreateMethodSchema,
  MAX_RECEIPT_BYTES,
  ManualRequestSchema,
  RejectSchema,
  UpdateMethodSchema,
} from '../features/funds/funds.schemas';
import type {
  AdminRequestDto,
  MethodDto,
  PublicMethodDto,
  approve,
  reject,
} from '../features/funds/funds.service';
import type { getMe } from '../features/me/me.service';
import { type bulkCompleteOrders } from '../features/orders/bulk-complete.service';
import {
  BulkCompleteLineSchema,
  BulkCompleteResultSchema,
  BulkCompleteSchema,
} from '../../shared/bulk-results';
import type { listOrders, placeBulkOrder } from '../features/orders/orders.service';
import type { orderSummary } from '../features/orders/summary.service';
import type { createCheckout } from '../features/payments/stripe/stripe.service';
import {
  CreateBatchSchema,
  RedeemSchema,
  type CreatedBatchDto,
  type RedeemResultDto,
  type VoucherBatchDto,
} from '../features/vouchers/vouchers.schemas';

// ─── Compile-time drift checks ───────────────────────────────────────────────────────────────

type Simplify<T> = { [K in keyof T]: T[K] } & {};
type Same<A, B> =
  (<T>() => T extends Simplify<A> ? 1 : 2) extends <T>() => T extends Simplify<B> ? 1 : 2
    ? true
    : false;
/** Fails to compile unless the schema's output type is exactly the type the code returns. */
function same<A, B>(..._proof: Same<A, B> extends true ? [] : [never]): void {}
type Returned<F extends (...args: never[]) => unknown> = Awaited<ReturnType<F>>;

// ─── Responses (io: output) ──────────────────────────────────────────────────────────────────

const CategoryCountSchema = z.strictObject({
  slug: CategorySlugSchema,
  label: z.string(),
  count: z.number().int(),
});

const PublicMethodSchema = z.strictObject({
  id: z.uuid(),
  name: z.string(),
  instructions: z.string(),
  minAmount: MoneySchema,
  maxAmount: MoneySchema,
});

const AdminServiceDtoSchema = z.strictObject({
  ...ServiceDtoSchema.shape,
  active: z.boolean(),
  sortOrder: z.number().int(),
});

const ServiceHistoryEntrySchema = z.strictObject({
  id: z.string(),
  action: z.string(),
  actor: z.strictObject({ name: z.string(), email: z.string() }).nullable(),
  createdAt: DateTimeSchema,
  changes: z.array(z.strictObject({ field: z.string(), before: z.unknown(), after: z.unknown() })),
});

const MethodDtoSchema = z.strictObject({
  ...PublicMethodSchema.shape,
  active: z.boolean(),
  sortOrder: z.number().int(),
  createdAt: DateTimeSchema,
  updatedAt: DateTimeSchema,
});

const AdminRequestDtoSchema = z.strictObject({
  ...PaymentDtoSchema.shape,
  customer: z.strictObject({ id: z.string(), name: z.string(), email: z.string() }),
  methodId: z.uuid().nullable(),
});

const VoucherBatchDtoSchema = z.strictObject({
  id: z.uuid(),
  amount: MoneySchema,
  count: z.number().int(),
  redeemed: z.number().int(),
  expiresAt: DateTimeSchema.nullable(),
  note: z.string().nullable(),
  createdAt: DateTimeSchema,
  createdBy: z.string(),
});

const CustomerSummarySchema = z.strictObject({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  role: z.string(),
  emailVerified: z.boolean(),
  available: MoneySchema,
});

/** A 500 from an unexpected error also carries the request id, to quote when reporting it. */
export const InternalErrorBodySchema = z.strictObject({
  ...ApiErrorBodySchema.shape,
  requestId: z.string().optional(),
});

export const RESPONSE_SCHEMAS = {
  ApiErrorBody: ApiErrorBodySchema,
  InternalErrorBody: InternalErrorBodySchema,
  Me: MeSchema,
  ContactReceipt: z.strictObject({ id: z.string(), message: z.string() }),
  WalletDto: WalletDtoSchema,
  MovementDto: MovementDtoSchema,
  MovementsPage: MovementsPageSchema,
  PaymentDto: PaymentDtoSchema,
  PaymentList: z.strictObject({ items: z.array(PaymentDtoSchema) }),
  CardTopupConfig: z.discriminatedUnion('available', [
    z.strictObject({ available: z.literal(true), minAmount: MoneySchema, maxAmount: MoneySchema }),
    z.strictObject({ available: z.literal(false), minAmount: z.null(), maxAmount: z.null() }),
  ]),
  CardCheckout: z.strictObject({ paymentId: z.uuid(), url: z.url() }),
  RedeemResult: z.strictObject({
    amount: MoneySchema,
    available: MoneySchema,
    message: z.string(),
  }),
  PublicMethodDto: PublicMethodSchema,
  FundingMethods: z.strictObject({
    card: z.strictObject({ minAmount: MoneySchema, maxAmount: MoneySchema }).nullable(),
    manual: z.array(PublicMethodSchema),
    voucher: z.literal(true),
  }),
  StripeWebhookAck: z.strictObject({ received: z.literal(true) }),
  ServiceField: ServiceFieldSchema,
  ServiceDto: ServiceDtoSchema,
  ServiceList: z.strictObject({ items: z.array(ServiceDtoSchema) }),
  CategoryCount: CategoryCountSchema,
  CategoryCountList: z.array(CategoryCountSchema),
  OrderEventDto: OrderEventDtoSchema,
  OrderDto: OrderDtoSchema,
  OrdersPage: OrdersPageSchema,
  BulkLineResult: BulkLineResultSchema,
  BulkOrderResult: BulkOrderResultSchema,
  OrderSummary: OrderSummarySchema,
  BulkCompleteLine: BulkCompleteLineSchema,
  BulkCompleteResult: BulkCompleteResultSchema,
  AdminServiceDto: AdminServiceDtoSchema,
  AdminServiceList: z.strictObject({ items: z.array(AdminServiceDtoSchema) }),
  ServiceHistoryEntry: ServiceHistoryEntrySchema,
  ServiceHistory: z.strictObject({ items: z.array(ServiceHistoryEntrySchema) }),
  BulkPriceResult: z.strictObject({ updated: z.number().int() }),
  AdminRequestDto: AdminRequestDtoSchema,
  AdminRequestList: z.strictObject({ items: z.array(AdminRequestDtoSchema) }),
  ApproveResult: z.strictObject({ payment: PaymentDtoSchema, balance: MoneySchema }),
  RejectResult: z.strictObject({ payment: PaymentDtoSchema }),
  MethodDto: MethodDtoSchema,
  MethodList: z.strictObject({ items: z.array(MethodDtoSchema) }),
  VoucherBatchDto: VoucherBatchDtoSchema,
  VoucherBatchList: z.strictObject({ items: z.array(VoucherBatchDtoSchema) }),
  CreatedBatchDto: z.strictObject({ batch: VoucherBatchDtoSchema, codes: z.array(z.string()) }),
  CustomerSummary: CustomerSummarySchema,
  CustomerList: z.strictObject({ items: z.array(CustomerSummarySchema) }),
  AdjustmentResult: z.strictObject({
    available: MoneySchema,
    held: MoneySchema,
    transferId: z.string(),
    replayed: z.boolean(),
  }),
} satisfies Record<string, z.ZodType>;

export type ResponseSchemaName = keyof typeof RESPONSE_SCHEMAS;
type Out<N extends ResponseSchemaName> = z.output<(typeof RESPONSE_SCHEMAS)[N]>;

same<Out<'Me'>, Me>();
same<Out<'Me'>, Returned<typeof getMe>>();
same<Out<'RedeemResult'>, RedeemResultDto>();
same<Out<'PublicMethodDto'>, PublicMethodDto>();
same<Out<'CardCheckout'>, Returned<typeof createCheckout>>();
same<Out<'CategoryCount'>, CategoryCountDto>();
same<Out<'OrdersPage'>, Returned<typeof listOrders>>();
same<Out<'BulkOrderResult'>, Returned<typeof placeBulkOrder>>();
same<Out<'OrderSummary'>, Returned<typeof orderSummary>>();
same<Out<'BulkCompleteResult'>, Returned<typeof bulkCompleteOrders>>();
same<Out<'AdminServiceDto'>, AdminServiceDto>();
same<Out<'ServiceHistoryEntry'>, ServiceHistoryEntryDto>();
same<Out<'BulkPriceResult'>, Returned<typeof bulkPriceChange>>();
same<Out<'AdminRequestDto'>, AdminRequestDto>();
same<Out<'ApproveResult'>, Returned<typeof approve>>();
same<Out<'RejectResult'>, Returned<typeof reject>>();
same<Out<'MethodDto'>, MethodDto>();
same<Out<'VoucherBatchDto'>, VoucherBatchDto>();
same<Out<'CreatedBatchDto'>, CreatedBatchDto>();
same<Out<'CustomerSummary'>, CustomerSummary>();
same<Out<'AdjustmentResult'>, Returned<typeof adjustBalance>>();

// ─── Requests (io: input) ────────────────────────────────────────────────────────────────────

const RECEIPT_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'application/pdf'];

export const REQUEST_SCHEMAS = {
  UpdateProfileRequest: UpdateProfileSchema,
  ContactRequest: ContactSchema,
  // The route reads `amount` as unknown and the service validates it with AmountSchema.
  CardCheckoutRequest: z.object({ amount: AmountSchema }),
  RedeemRequest: RedeemSchema,
  ManualTopupRequest: ManualRequestSchema,
  ManualTopupForm: ManualRequestSchema.extend({
    receipt: z.file().mime(RECEIPT_TYPES).max(MAX_RECEIPT_BYTES).optional(),
  }),
  StripeEvent: z.looseObject({
    id: z.string(),
    type: z.string(),
    data: z.looseObject({ object: z.looseObject({}) }),
  }),
  PlaceOrderRequest: PlaceOrderSchema,
  BulkOrderRequest: BulkOrderSchema,
  ServiceFieldInput: serviceFieldSchema,
  ServiceFieldListInput: serviceFieldListSchema,
  CreateServiceRequest: CreateServiceSchema,
  UpdateServiceRequest: UpdateServiceSchema,
  ReorderServicesRequest: ReorderSchema,
  BulkPriceRequest: BulkPriceSchema,
  CompleteOrderRequest: CompleteOrderSchema,
  BulkCompleteRequest: BulkCompleteSchema,
  RejectOrderRequest: RejectOrderSchema,
  RejectTopupRequest: RejectSchema,
  CreateMethodRequest: CreateMethodSchema,
  UpdateMethodRequest: UpdateMethodSchema,
  CreateVoucherBatchRequest: CreateBatchSchema,
  AdjustmentRequest: AdjustmentSchema,
} satisfies Record<string, z.ZodType>;

export type RequestSchemaName = keyof typeof REQUEST_SCHEMAS;

/**
 * Request properties whose zod schema is a transform of `unknown` (nothing to convert): the
 * schema the transform itself parses with stands in for them.
 */
export const REQUEST_PROPERTY_REFS: Partial<
  Record<RequestSchemaName, Record<string, RequestSchemaName>>
> = {
  CreateServiceRequest: { fields: 'ServiceFieldListInput' },
  UpdateServiceRequest: { fields: 'ServiceFieldListInput' },
};
