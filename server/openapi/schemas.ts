// Every schema the OpenAPI document names, by component name: the zod schemas the routes parse
// requests with, and the zod schemas of what they answer. The types the code returns are
// checked against these at compile time (`same<…>()` below), so the document cannot drift.
import {
  ReportFiguresSchema,
  ReportPointSchema,
  ReportRowSchema,
  ReportSchema,
  ReportTopupSchema,
  type Report,
} from '../../shared/schemas/reports';
import type { buildReport } from '../features/reports/reports.service';
import {
  OrderFileDtoSchema,
  OrderFileUploadFormSchema,
  OrderFileUploadSchema,
  UploadedOrderFileSchema,
} from '../../shared/schemas/order-files';
import { z } from 'zod';
import {
  ReplaceItemSchema,
  StockSummarySchema,
  StockUploadResultSchema,
} from '../../shared/schemas/stock';
import type { stockSummary, uploadStock } from '../features/stock/stock.service';
import { ApiErrorBodySchema } from '../../shared/error-codes';
import { serviceFieldListSchema, serviceFieldSchema } from '../../shared/fields';
import {
  AdjustmentResultSchema,
  CreateCustomerNoteSchema,
  CustomerDetailSchema,
  CustomerNoteSchema,
  CustomerNoteListSchema,
  CustomerListSchema,
  CustomerSummarySchema,
  StaffOrdersPageSchema,
} from '../../shared/schemas/admin';
import {
  AcceptedStaffInvitationSchema,
  AcceptStaffInvitationSchema,
  AuditPageSchema,
  ChangeStaffRoleSchema,
  InviteStaffSchema,
  StaffInvitationInfoSchema,
  StaffInvitationSchema,
  StaffListSchema,
  StaffMemberSchema,
} from '../../shared/schemas/staff';
import { UpdateProfileSchema } from '../../shared/schemas/auth';
import {
  CreditLimitInputSchema,
  CreditLimitResultSchema,
  DebtorListSchema,
  DebtorSchema,
} from '../../shared/schemas/credit';
import {
  AdminServiceDtoSchema,
  AdminServiceListSchema,
  BulkPriceResultSchema,
  BulkPriceSchema,
  CategoryCountListSchema,
  CategoryCountSchema,
  CreateServiceSchema,
  ReorderSchema,
  BulkServicesSchema,
  ServiceDtoSchema,
  ServiceFieldSchema,
  ServiceHistoryEntrySchema,
  ServiceHistorySchema,
  ServiceListSchema,
  UpdateServiceSchema,
  type AdminServiceDto,
  type CategoryCountDto,
  type ServiceHistoryEntryDto,
} from '../../shared/schemas/catalogue';
import { ContactReceiptSchema, ContactSchema } from '../../shared/schemas/contact';
import {
  AdminRequestDtoSchema,
  AdminRequestListSchema,
  ApproveResultSchema,
  CardCheckoutRequestSchema,
  CardCheckoutSchema,
  CardTopupConfigSchema,
  CreateMethodSchema,
  FundingMethodsSchema,
  ManualRequestFormSchema,
  ManualRequestSchema,
  MethodDtoSchema,
  MethodListSchema,
  PublicMethodDtoSchema,
  RejectResultSchema,
  RejectSchema,
  UpdateMethodSchema,
  type AdminRequestDto,
  type MethodDto,
  type PublicMethodDto,
} from '../../shared/schemas/funds';
import {
  AdminAnnouncementListSchema,
  AdminAnnouncementSchema,
  AnnouncementInputSchema,
  AnnouncementListSchema,
  AnnouncementPatchSchema,
  AnnouncementSchema,
  AudienceSchema,
} from '../../shared/schemas/announcements';
import type {
  listAdminAnnouncements,
  listCustomerAnnouncements,
  markAnnouncementRead,
  updateAnnouncement,
} from '../features/announcements/announcements.service';
import { MeSchema, type Me } from '../../shared/schemas/me';
import {
  CustomerPricesSchema,
  PriceGroupInputSchema,
  PriceGroupListSchema,
  PriceGroupPatchSchema,
  PriceGroupSchema,
  PriceOverrideInputSchema,
  PriceOverrideSchema,
  SetPriceGroupSchema,
  SpecialPriceSchema,
  SpecialPricesInputSchema,
} from '../../shared/schemas/price-groups';
import {
  ApiKeyDtoSchema,
  ApiKeyListSchema,
  CreateApiKeySchema,
  CreatedApiKeySchema,
  CreatedWebhookEndpointSchema,
  CreateWebhookEndpointSchema,
  WebhookAttemptDtoSchema,
  WebhookDeliveryDtoSchema,
  WebhookDeliveryListSchema,
  WebhookEndpointDtoSchema,
  WebhookEndpointListSchema,
  type ApiKeyDto,
  type WebhookDeliveryDto,
  type WebhookEndpointDto,
} from '../../shared/schemas/api-keys';
import { DhruRequestSchema, SmmRequestSchema } from '../../shared/schemas/reseller';
import {
  AdminOrderDtoSchema,
  AdminOrdersPageSchema,
  ConfirmDispatchSchema,
  CreateSupplierSchema,
  DispatchDtoSchema,
  ImportServicesSchema,
  RemoteServiceDtoSchema,
  RemoteServiceListSchema,
  ServiceRouteDtoSchema,
  SetServiceRoutesSchema,
  SupplierDtoSchema,
  SupplierLogEntrySchema,
  SupplierLogSchema,
  SupplierListSchema,
  SupplierSettingsSchema,
  SupplierTestResultSchema,
  UpdateSupplierSchema,
  type AdminOrderDto,
  type SupplierDto,
} from '../../shared/schemas/suppliers';
import { type listAdminRefills } from '../features/orders/lifecycle.service';
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
  RefillDtoSchema,
  AdminRefillDtoSchema,
  AdminRefillListSchema,
  CompleteRefillSchema,
  RejectRefillSchema,
} from '../../shared/schemas/orders';
import {
  CreateBatchSchema,
  CreatedBatchDtoSchema,
  RedeemResultSchema,
  RedeemSchema,
  VoucherBatchDtoSchema,
  VoucherBatchListSchema,
  type CreatedBatchDto,
  type RedeemResultDto,
  type VoucherBatchDto,
} from '../../shared/schemas/vouchers';
import {
  AdjustmentSchema,
  MovementDtoSchema,
  MovementsPageSchema,
  PaymentDtoSchema,
  PaymentListSchema,
  WalletDtoSchema,
} from '../../shared/schemas/wallet';
import type { CustomerSummary } from '../../shared/schemas/admin';
import type { adjustBalance } from '../features/admin/adjustments.service';
import type { listDebtors, setCreditLimit } from '../features/credit/credit.service';
import type { addNote, getCustomer } from '../features/admin/customer.service';
import type { bulkPriceChange } from '../features/catalogue/catalogue.service';
import type { approve, reject } from '../features/funds/funds.service';
import type { listAudit } from '../features/audit/audit-log.service';
import type {
  acceptInvitation,
  changeStaffRole,
  invitationInfo,
  inviteStaff,
  listStaff,
} from '../features/staff/staff.service';
import type { getMe } from '../features/me/me.service';
import {
  type bulkCompleteOrders,
  type previewBulkComplete,
} from '../features/orders/bulk-complete.service';
import {
  BulkCompleteLineSchema,
  BulkCompletePreviewSchema,
  BulkCompleteResultSchema,
  BulkCompleteSchema,
  BulkPreviewLineSchema,
  BulkPreviewOrderSchema,
} from '../../shared/bulk-results';
import type { listOrders, placeBulkOrder } from '../features/orders/orders.service';
import type { orderSummary } from '../features/orders/summary.service';
import type { adminListOrders, orderSupplierLog } from '../features/suppliers/admin-orders.service';
import type { adminOverview, bulkOrderAction } from '../features/orders/admin-desk.service';
import {
  AdminOverviewSchema,
  BulkOrderActionSchema,
  BulkActionItemSchema,
  BulkActionResultSchema,
  CreateSnippetSchema,
  SnippetDtoSchema,
  SnippetListSchema,
  UpdateSnippetSchema,
} from '../../shared/schemas/admin-desk';
import type { listRemoteServices, testSupplier } from '../features/suppliers/suppliers.service';
import { StripeEventSchema, type createCheckout } from '../features/payments/stripe/stripe.service';
import { PaypalEventSchema } from '../features/payments/paypal/paypal.service';
import {
  GatewayTopupRequestSchema,
  PaypalTopupSchema,
  TopupResultSchema,
} from '../../shared/schemas/payments';
import { ReceiptDtoSchema, ReceiptListSchema } from '../../shared/schemas/payments';
import type { listMyReceipts, listReceipts } from '../features/receipts/receipts.service';
import {
  AccountFlagDtoSchema,
  AccountFlagListSchema,
  AdminPaymentDtoSchema,
  AdminPaymentListSchema,
  AdminPaymentResultSchema,
  GatewaySettingDtoSchema,
  GatewaySettingListSchema,
  PaymentMethodDtoSchema,
  PaymentMethodListSchema,
  PaymentSettingsDtoSchema,
  UpdateGatewaySettingSchema,
  UpdatePaymentSettingsSchema,
} from '../../shared/schemas/payments';
import type {
  approveHeldTopup,
  clearAccountFlag,
  getPaymentSettings,
  listAccountFlags,
  listGatewaySettings,
  listHeldTopups,
  listPaymentMethods,
  topupResult,
  updateGatewaySetting,
} from '../features/payments/payments-admin.service';
import {
  NowPaymentsIpnSchema,
  type createCryptoTopup,
} from '../features/payments/crypto/crypto.service';
import { CryptoTopupRequestSchema, CryptoTopupSchema } from '../../shared/schemas/payments';
import { MercadoPagoTopupSchema } from '../../shared/schemas/payments';
import {
  MercadoPagoNotificationSchema,
  type createTopup as createMercadoPagoTopup,
} from '../features/payments/mercadopago/mercadopago.service';

// ─── Compile-time drift checks ───────────────────────────────────────────────────────────────

type Simplify<T> = { [K in keyof T]: T[K] } & {};
type Same<A, B> =
  (<T>() => T extends Simplify<A> ? 1 : 2) extends <T>() => T extends Simplify<B> ? 1 : 2
    ? true
    : false;
/** Fails to compile unless the schema's output type is exactly the type the code returns. */
function same<A, B>(..._proof: Same<A, B> extends true ? [] : [never]): void {}
import {
  AdminUserSecuritySchema,
  BlockUserSchema,
  DeleteAccountSchema,
  LinkedMethodSchema,
  SecurityOverviewSchema,
  SessionInfoSchema,
  SessionListSchema,
  SignInMethodsSchema,
} from '../../shared/schemas/security';
import {
  NotificationPrefsSchema,
  NotificationSettingsSchema,
  TelegramLinkSchema,
} from '../../shared/schemas/notifications';
import { TelegramUpdateSchema } from '../features/telegram/telegram.service';

import {
  BulkCloseTicketsResultSchema,
  BulkCloseTicketsSchema,
  CreatedTicketSchema,
  CreateTicketFormSchema,
  CreateTicketSchema,
  StaffTicketDetailSchema,
  StaffTicketListSchema,
  StaffTicketReplyFormSchema,
  StaffTicketReplySchema,
  StaffTicketSummarySchema,
  TicketAssigneeListSchema,
  TicketDetailSchema,
  TicketListSchema,
  TicketMessageDtoSchema,
  TicketReplyFormSchema,
  TicketReplySchema,
  TicketUnreadSchema,
  UpdateTicketSchema,
} from '../../shared/schemas/tickets';
import type {
  bulkCloseTickets,
  createTicket,
  getMyTicket,
  getStaffTicket,
  listAssignees,
  listMyTickets,
  listStaffTickets,
  staffReply,
  updateTicket,
} from '../features/tickets/tickets.service';

type Returned<F extends (...args: never[]) => unknown> = Awaited<ReturnType<F>>;

// ─── Responses (io: output) ──────────────────────────────────────────────────────────────────

/** A 500 from an unexpected error also carries the request id, to quote when reporting it. */
export const InternalErrorBodySchema = z.strictObject({
  ...ApiErrorBodySchema.shape,
  requestId: z.string().optional(),
});

export const RESPONSE_SCHEMAS = {
  ApiErrorBody: ApiErrorBodySchema,
  InternalErrorBody: InternalErrorBodySchema,
  Me: MeSchema,
  ContactReceipt: ContactReceiptSchema,
  WalletDto: WalletDtoSchema,
  MovementDto: MovementDtoSchema,
  MovementsPage: MovementsPageSchema,
  PaymentDto: PaymentDtoSchema,
  PaymentList: PaymentListSchema,
  CardTopupConfig: CardTopupConfigSchema,
  CardCheckout: CardCheckoutSchema,
  RedeemResult: RedeemResultSchema,
  PublicMethodDto: PublicMethodDtoSchema,
  FundingMethods: FundingMethodsSchema,
  StripeWebhookAck: z.strictObject({ received: z.literal(true) }),
  PaypalTopup: PaypalTopupSchema,
  TopupResult: TopupResultSchema,
  PaypalWebhookAck: z.strictObject({ received: z.literal(true) }),
  PaymentMethodDto: PaymentMethodDtoSchema,
  PaymentMethodList: PaymentMethodListSchema,
  GatewaySettingDto: GatewaySettingDtoSchema,
  GatewaySettingList: GatewaySettingListSchema,
  PaymentSettingsDto: PaymentSettingsDtoSchema,
  AdminPaymentDto: AdminPaymentDtoSchema,
  AdminPaymentList: AdminPaymentListSchema,
  AdminPaymentResult: AdminPaymentResultSchema,
  AccountFlagDto: AccountFlagDtoSchema,
  AccountFlagList: AccountFlagListSchema,
  CryptoTopup: CryptoTopupSchema,
  NowPaymentsAck: z.strictObject({ received: z.literal(true) }),
  MercadoPagoTopup: MercadoPagoTopupSchema,
  MercadoPagoWebhookAck: z.strictObject({ received: z.literal(true) }),
  TelegramAck: z.strictObject({ ok: z.literal(true) }),
  NotificationSettings: NotificationSettingsSchema,
  TelegramLink: TelegramLinkSchema,
  ServiceField: ServiceFieldSchema,
  ServiceDto: ServiceDtoSchema,
  ServiceList: ServiceListSchema,
  CategoryCount: CategoryCountSchema,
  CategoryCountList: CategoryCountListSchema,
  OrderEventDto: OrderEventDtoSchema,
  OrderDto: OrderDtoSchema,
  OrderFileDto: OrderFileDtoSchema,
  UploadedOrderFile: UploadedOrderFileSchema,
  RefillDto: RefillDtoSchema,
  AdminRefillDto: AdminRefillDtoSchema,
  AdminRefillList: AdminRefillListSchema,
  OrdersPage: OrdersPageSchema,
  BulkLineResult: BulkLineResultSchema,
  BulkActionItem: BulkActionItemSchema,
  BulkActionResult: BulkActionResultSchema,
  SnippetDto: SnippetDtoSchema,
  SnippetList: SnippetListSchema,
  OrderSummary: OrderSummarySchema,
  BulkCompleteLine: BulkCompleteLineSchema,
  BulkCompleteResult: BulkCompleteResultSchema,
  BulkPreviewOrder: BulkPreviewOrderSchema,
  BulkPreviewLine: BulkPreviewLineSchema,
  BulkCompletePreview: BulkCompletePreviewSchema,
  AdminServiceDto: AdminServiceDtoSchema,
  AdminServiceList: AdminServiceListSchema,
  ServiceHistoryEntry: ServiceHistoryEntrySchema,
  ServiceHistory: ServiceHistorySchema,
  BulkPriceResult: BulkPriceResultSchema,
  StockUploadResult: StockUploadResultSchema,
  StockSummary: StockSummarySchema,
  AdminRequestDto: AdminRequestDtoSchema,
  AdminRequestList: AdminRequestListSchema,
  ApproveResult: ApproveResultSchema,
  RejectResult: RejectResultSchema,
  MethodDto: MethodDtoSchema,
  MethodList: MethodListSchema,
  VoucherBatchDto: VoucherBatchDtoSchema,
  VoucherBatchList: VoucherBatchListSchema,
  CreatedBatchDto: CreatedBatchDtoSchema,
  CustomerSummary: CustomerSummarySchema,
  CustomerList: CustomerListSchema,
  AdjustmentResult: AdjustmentResultSchema,
  CreditLimitResult: CreditLimitResultSchema,
  Debtor: DebtorSchema,
  DebtorList: DebtorListSchema,
  CustomerDetail: CustomerDetailSchema,
  CustomerNote: CustomerNoteSchema,
  CustomerNoteList: CustomerNoteListSchema,
  ServiceRouteDto: ServiceRouteDtoSchema,
  SupplierSettings: SupplierSettingsSchema,
  SupplierDto: SupplierDtoSchema,
  SupplierList: SupplierListSchema,
  SupplierTestResult: SupplierTestResultSchema,
  RemoteServiceDto: RemoteServiceDtoSchema,
  RemoteServiceList: RemoteServiceListSchema,
  DispatchDto: DispatchDtoSchema,
  AdminOrderDto: AdminOrderDtoSchema,
  AdminOrdersPage: AdminOrdersPageSchema,
  AdminOverview: AdminOverviewSchema,
  BulkOrderResult: BulkOrderResultSchema,
  SupplierLogEntry: SupplierLogEntrySchema,
  SupplierLog: SupplierLogSchema,
  ApiKeyDto: ApiKeyDtoSchema,
  CreatedApiKey: CreatedApiKeySchema,
  ApiKeyList: ApiKeyListSchema,
  Revoked: z.strictObject({ revoked: z.literal(true) }),
  WebhookEndpointDto: WebhookEndpointDtoSchema,
  CreatedWebhookEndpoint: CreatedWebhookEndpointSchema,
  WebhookEndpointList: WebhookEndpointListSchema,
  WebhookAttemptDto: WebhookAttemptDtoSchema,
  WebhookDeliveryDto: WebhookDeliveryDtoSchema,
  WebhookDeliveryList: WebhookDeliveryListSchema,
  Deleted: z.strictObject({ deleted: z.literal(true) }),
  PriceOverride: PriceOverrideSchema,
  PriceGroup: PriceGroupSchema,
  PriceGroupList: PriceGroupListSchema,
  AdminAnnouncement: AdminAnnouncementSchema,
  AdminAnnouncementList: AdminAnnouncementListSchema,
  Announcement: AnnouncementSchema,
  AnnouncementList: AnnouncementListSchema,
  SpecialPrice: SpecialPriceSchema,
  CustomerPrices: CustomerPricesSchema,
  Resent: z.strictObject({ resent: z.literal(true) }),
  RevokedCount: z.strictObject({ revoked: z.number().int() }),
  SignInMethods: SignInMethodsSchema,
  SessionInfo: SessionInfoSchema,
  SessionList: SessionListSchema,
  LinkedMethod: LinkedMethodSchema,
  SecurityOverview: SecurityOverviewSchema,
  AdminUserSecurity: AdminUserSecuritySchema,
  ReportRow: ReportRowSchema,
  ReportPoint: ReportPointSchema,
  ReportTopup: ReportTopupSchema,
  ReportFigures: ReportFiguresSchema,
  Report: ReportSchema,
  StaffOrdersPage: StaffOrdersPageSchema,
  StaffMember: StaffMemberSchema,
  StaffInvitation: StaffInvitationSchema,
  StaffList: StaffListSchema,
  StaffInvitationInfo: StaffInvitationInfoSchema,
  AcceptedStaffInvitation: AcceptedStaffInvitationSchema,
  AuditPage: AuditPageSchema,
  CreatedTicket: CreatedTicketSchema,
  TicketMessageDto: TicketMessageDtoSchema,
  TicketList: TicketListSchema,
  TicketDetail: TicketDetailSchema,
  StaffTicketSummary: StaffTicketSummarySchema,
  StaffTicketList: StaffTicketListSchema,
  StaffTicketDetail: StaffTicketDetailSchema,
  TicketUnread: TicketUnreadSchema,
  BulkCloseTicketsResult: BulkCloseTicketsResultSchema,
  TicketAssigneeList: TicketAssigneeListSchema,
  ReceiptDto: ReceiptDtoSchema,
  ReceiptList: ReceiptListSchema,
} satisfies Record<string, z.ZodType>;

export type ResponseSchemaName = keyof typeof RESPONSE_SCHEMAS;
type Out<N extends ResponseSchemaName> = z.output<(typeof RESPONSE_SCHEMAS)[N]>;

same<Out<'Me'>, Me>();
same<Out<'AdminAnnouncement'>, Returned<typeof updateAnnouncement>>();
same<Out<'AdminAnnouncementList'>['items'], Returned<typeof listAdminAnnouncements>>();
same<Out<'Announcement'>, Returned<typeof markAnnouncementRead>>();
same<Out<'AnnouncementList'>['items'], Returned<typeof listCustomerAnnouncements>>();
same<Out<'Me'>, Returned<typeof getMe>>();
same<Out<'RedeemResult'>, RedeemResultDto>();
same<Out<'PublicMethodDto'>, PublicMethodDto>();
same<Out<'CardCheckout'>, Returned<typeof createCheckout>>();
same<Out<'PaymentMethodList'>['items'], Returned<typeof listPaymentMethods>>();
same<Out<'TopupResult'>, Returned<typeof topupResult>>();
same<Out<'GatewaySettingList'>['items'], Returned<typeof listGatewaySettings>>();
same<Out<'GatewaySettingDto'>, Returned<typeof updateGatewaySetting>>();
same<Out<'PaymentSettingsDto'>, Returned<typeof getPaymentSettings>>();
same<Out<'AdminPaymentList'>['items'], Returned<typeof listHeldTopups>>();
same<Out<'AdminPaymentResult'>, Returned<typeof approveHeldTopup>>();
same<Out<'AccountFlagList'>['items'], Returned<typeof listAccountFlags>>();
same<Out<'AccountFlagDto'>, Returned<typeof clearAccountFlag>>();
same<Out<'CryptoTopup'>, Returned<typeof createCryptoTopup>>();
same<Out<'MercadoPagoTopup'>, Returned<typeof createMercadoPagoTopup>>();
same<Out<'CategoryCount'>, CategoryCountDto>();
same<Out<'OrdersPage'>, Returned<typeof listOrders>>();
same<Out<'BulkOrderResult'>, Returned<typeof placeBulkOrder>>();
same<Out<'OrderSummary'>, Returned<typeof orderSummary>>();
same<Out<'BulkCompleteResult'>, Returned<typeof bulkCompleteOrders>>();
same<Out<'BulkCompletePreview'>, Returned<typeof previewBulkComplete>>();
same<Out<'AdminServiceDto'>, AdminServiceDto>();
same<Out<'ServiceHistoryEntry'>, ServiceHistoryEntryDto>();
same<Out<'BulkPriceResult'>, Returned<typeof bulkPriceChange>>();
same<Out<'StockUploadResult'>, Returned<typeof uploadStock>>();
same<Out<'StockSummary'>, Returned<typeof stockSummary>>();
same<Out<'AdminRequestDto'>, AdminRequestDto>();
same<Out<'ApproveResult'>, Returned<typeof approve>>();
same<Out<'RejectResult'>, Returned<typeof reject>>();
same<Out<'MethodDto'>, MethodDto>();
same<Out<'VoucherBatchDto'>, VoucherBatchDto>();
same<Out<'CreatedBatchDto'>, CreatedBatchDto>();
same<Out<'CustomerSummary'>, CustomerSummary>();
same<Out<'AdjustmentResult'>, Returned<typeof adjustBalance>>();
same<Out<'CreditLimitResult'>, Returned<typeof setCreditLimit>>();
same<Out<'DebtorList'>, Returned<typeof listDebtors>>();
same<Out<'CustomerDetail'>, Returned<typeof getCustomer>>();
same<Out<'CustomerNote'>, Returned<typeof addNote>>();
same<Out<'SupplierDto'>, SupplierDto>();
same<Out<'ApiKeyDto'>, ApiKeyDto>();
same<Out<'WebhookEndpointDto'>, WebhookEndpointDto>();
same<Out<'WebhookDeliveryDto'>, WebhookDeliveryDto>();
same<Out<'SupplierTestResult'>, Returned<typeof testSupplier>>();
same<Out<'RemoteServiceList'>, Returned<typeof listRemoteServices>>();
same<Out<'AdminOrderDto'>, AdminOrderDto>();
same<Out<'Report'>, Report>();
same<Out<'Report'>, Returned<typeof buildReport>>();
same<Out<'ReceiptList'>, Returned<typeof listMyReceipts>>();
same<Out<'ReceiptList'>, Returned<typeof listReceipts>>();
same<Out<'AdminRefillDto'>, Returned<typeof listAdminRefills>[number]>();
same<Out<'AdminOrdersPage'>, Returned<typeof adminListOrders>>();
same<Out<'AdminOverview'>, Returned<typeof adminOverview>>();
same<Out<'BulkActionResult'>, Returned<typeof bulkOrderAction>>();
same<Out<'SupplierLog'>, Returned<typeof orderSupplierLog>>();
same<Out<'StaffList'>, Returned<typeof listStaff>>();
same<Out<'StaffInvitation'>, Returned<typeof inviteStaff>>();
same<Out<'StaffMember'>, Returned<typeof changeStaffRole>>();
same<Out<'StaffInvitationInfo'>, Returned<typeof invitationInfo>>();
same<Out<'AcceptedStaffInvitation'>, Returned<typeof acceptInvitation>>();
same<Out<'AuditPage'>, Returned<typeof listAudit>>();
same<Out<'CreatedTicket'>, Returned<typeof createTicket>>();
same<Out<'TicketList'>, Returned<typeof listMyTickets>>();
same<Out<'TicketDetail'>, Returned<typeof getMyTicket>>();
same<Out<'TicketMessageDto'>, Returned<typeof staffReply>>();
same<Out<'StaffTicketList'>, Returned<typeof listStaffTickets>>();
same<Out<'StaffTicketDetail'>, Returned<typeof getStaffTicket>>();
same<Out<'StaffTicketSummary'>, Returned<typeof updateTicket>>();
same<Out<'BulkCloseTicketsResult'>, Returned<typeof bulkCloseTickets>>();
same<Out<'TicketAssigneeList'>, Returned<typeof listAssignees>>();

// ─── Requests (io: input) ────────────────────────────────────────────────────────────────────

export const REQUEST_SCHEMAS = {
  InviteStaffRequest: InviteStaffSchema,
  ChangeStaffRoleRequest: ChangeStaffRoleSchema,
  AcceptStaffInvitationRequest: AcceptStaffInvitationSchema,
  DeleteAccountRequest: DeleteAccountSchema,
  BlockUserRequest: BlockUserSchema,
  UpdateProfileRequest: UpdateProfileSchema,
  ContactRequest: ContactSchema,
  CardCheckoutRequest: CardCheckoutRequestSchema,
  RedeemRequest: RedeemSchema,
  ManualTopupRequest: ManualRequestSchema,
  ManualTopupForm: ManualRequestFormSchema,
  OrderFileUploadRequest: OrderFileUploadSchema,
  OrderFileUploadForm: OrderFileUploadFormSchema,
  StripeEvent: StripeEventSchema,
  GatewayTopupRequest: GatewayTopupRequestSchema,
  PaypalEvent: PaypalEventSchema,
  UpdateGatewaySettingRequest: UpdateGatewaySettingSchema,
  UpdatePaymentSettingsRequest: UpdatePaymentSettingsSchema,
  CryptoTopupRequest: CryptoTopupRequestSchema,
  NowPaymentsIpn: NowPaymentsIpnSchema,
  MercadoPagoNotification: MercadoPagoNotificationSchema,
  NotificationPrefsRequest: NotificationPrefsSchema,
  TelegramUpdate: TelegramUpdateSchema,
  PlaceOrderRequest: PlaceOrderSchema,
  BulkOrderRequest: BulkOrderSchema,
  ServiceFieldInput: serviceFieldSchema,
  ServiceFieldListInput: serviceFieldListSchema,
  CreateServiceRequest: CreateServiceSchema,
  UpdateServiceRequest: UpdateServiceSchema,
  ReorderServicesRequest: ReorderSchema,
  BulkServicesRequest: BulkServicesSchema,
  BulkPriceRequest: BulkPriceSchema,
  CompleteOrderRequest: CompleteOrderSchema,
  BulkCompleteRequest: BulkCompleteSchema,
  RejectOrderRequest: RejectOrderSchema,
  ReplaceItemRequest: ReplaceItemSchema,
  BulkOrderActionRequest: BulkOrderActionSchema,
  CreateSnippetRequest: CreateSnippetSchema,
  UpdateSnippetRequest: UpdateSnippetSchema,
  CompleteRefillRequest: CompleteRefillSchema,
  RejectRefillRequest: RejectRefillSchema,
  RejectTopupRequest: RejectSchema,
  CreateMethodRequest: CreateMethodSchema,
  UpdateMethodRequest: UpdateMethodSchema,
  CreateVoucherBatchRequest: CreateBatchSchema,
  AdjustmentRequest: AdjustmentSchema,
  CreditLimitRequest: CreditLimitInputSchema,
  CustomerNoteRequest: CreateCustomerNoteSchema,
  CreateSupplierRequest: CreateSupplierSchema,
  UpdateSupplierRequest: UpdateSupplierSchema,
  ImportServicesRequest: ImportServicesSchema,
  SetServiceRoutesRequest: SetServiceRoutesSchema,
  ConfirmDispatchRequest: ConfirmDispatchSchema,
  CreateApiKeyRequest: CreateApiKeySchema,
  CreateWebhookEndpointRequest: CreateWebhookEndpointSchema,
  DhruRequest: DhruRequestSchema,
  SmmRequest: SmmRequestSchema,
  PriceOverrideRequest: PriceOverrideInputSchema,
  CreatePriceGroupRequest: PriceGroupInputSchema,
  UpdatePriceGroupRequest: PriceGroupPatchSchema,
  SetPriceGroupRequest: SetPriceGroupSchema,
  SpecialPricesRequest: SpecialPricesInputSchema,
  CreateTicketRequest: CreateTicketSchema,
  CreateTicketForm: CreateTicketFormSchema,
  TicketReplyRequest: TicketReplySchema,
  TicketReplyForm: TicketReplyFormSchema,
  StaffTicketReplyRequest: StaffTicketReplySchema,
  StaffTicketReplyForm: StaffTicketReplyFormSchema,
  UpdateTicketRequest: UpdateTicketSchema,
  BulkCloseTicketsRequest: BulkCloseTicketsSchema,
  AnnouncementAudience: AudienceSchema,
  CreateAnnouncementRequest: AnnouncementInputSchema,
  UpdateAnnouncementRequest: AnnouncementPatchSchema,
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
