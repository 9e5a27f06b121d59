// Every API route, in the order Hono matches them (a static path before a `:id` path). The list
// is the single source of the router, the validation, the authorization checks and the OpenAPI
// document; tests walk it too. Better Auth's /api/auth/* is its own handler (server/lib/auth-http.ts).
import { adminRoutes } from './features/admin/admin.routes';
import {
  announcementAdminRoutes,
  announcementRoutes,
} from './features/announcements/announcements.routes';
import { creditRoutes } from './features/credit/credit.routes';
import { catalogueAdminRoutes, catalogueRoutes } from './features/catalogue/catalogue.routes';
import { contactRoutes } from './features/contact/contact.routes';
import { fundsAdminRoutes, fundsRoutes } from './features/funds/funds.routes';
import { meRoutes } from './features/me/me.routes';
import { orderFileAdminRoutes, orderFileRoutes } from './features/orders/order-files.routes';
import {
  ordersAdminRoutes,
  ordersRoutes,
  refillsAdminRoutes,
} from './features/orders/orders.routes';
import { paypalRoutes, paypalWebhookRoutes } from './features/payments/paypal/paypal.routes';
import {
  mercadoPagoRoutes,
  mercadoPagoWebhookRoutes,
} from './features/payments/mercadopago/mercadopago.routes';
import { stripeRoutes, stripeWebhookRoutes } from './features/payments/stripe/stripe.routes';
import { paymentAdminRoutes, paymentRoutes } from './features/payments/payments-admin.routes';
import { cryptoRoutes, cryptoWebhookRoutes } from './features/payments/crypto/crypto.routes';
import {
  dispatchAdminRoutes,
  serviceRouteAdminRoutes,
  supplierAdminRoutes,
} from './features/suppliers/suppliers.routes';
import { voucherAdminRoutes, voucherRedeemRoutes } from './features/vouchers/vouchers.routes';
import { walletRoutes } from './features/wallet/wallet.routes';
import { apiKeyRoutes } from './features/api-keys/api-keys.routes';
import { resellerRoutes } from './features/reseller/reseller.routes';
import { reportsAdminRoutes } from './features/reports/reports.routes';
import { receiptAdminRoutes, receiptRoutes } from './features/receipts/receipts.routes';
import { webhookRoutes } from './features/webhooks/webhooks.routes';
import { securityAdminRoutes, securityRoutes } from './features/security/security.routes';
import { staffAdminRoutes, staffInvitationRoutes } from './features/staff/staff.routes';
import type { RouteDef } from './lib/route';
import { openapiRoutes } from './openapi/openapi.routes';
import { priceGroupAdminRoutes } from './features/price-groups/price-groups.routes';
import { stockAdminRoutes, stockOrderAdminRoutes } from './features/stock/stock.routes';
import { telegramRoutes, telegramWebhookRoutes } from './features/telegram/telegram.routes';
import { ticketAdminRoutes, ticketRoutes } from './features/tickets/tickets.routes';

export const API_ROUTES: readonly RouteDef[] = [
  ...openapiRoutes,
  ...meRoutes,
  ...telegramRoutes,
  ...telegramWebhookRoutes,
  ...securityRoutes,
  ...apiKeyRoutes,
  ...webhookRoutes,
  ...resellerRoutes,
  ...contactRoutes,
  ...announcementRoutes,
  ...walletRoutes,
  ...stripeRoutes,
  ...paypalRoutes,
  ...cryptoRoutes,
  ...mercadoPagoRoutes,
  ...voucherRedeemRoutes,
  ...fundsRoutes,
  ...receiptRoutes,
  ...stripeWebhookRoutes,
  ...paypalWebhookRoutes,
  ...paymentRoutes,
  ...cryptoWebhookRoutes,
  ...mercadoPagoWebhookRoutes,
  ...fundsAdminRoutes,
  ...paymentAdminRoutes,
  ...ordersRoutes,
  ...orderFileRoutes,
  ...ordersAdminRoutes,
  ...orderFileAdminRoutes,
  ...stockOrderAdminRoutes,
  ...refillsAdminRoutes,
  ...dispatchAdminRoutes,
  ...catalogueRoutes,
  ...catalogueAdminRoutes,
  ...stockAdminRoutes,
  ...serviceRouteAdminRoutes,
  ...supplierAdminRoutes,
  ...voucherAdminRoutes,
  ...adminRoutes,
  ...priceGroupAdminRoutes,
  ...announcementAdminRoutes,
  ...creditRoutes,
  ...securityAdminRoutes,
  ...reportsAdminRoutes,
  ...receiptAdminRoutes,
  ...staffAdminRoutes,
  ...staffInvitationRoutes,
  ...ticketRoutes,
  ...ticketAdminRoutes,
];
