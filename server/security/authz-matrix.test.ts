// The authorization matrix: every operation of the OpenAPI document × five roles, each answer
// checked against an explicit table. A route added to API_ROUTES without an entry in EXPECTED
// fails the first test: its access has to be decided, and written down, here.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ErrorCode } from '../../shared/error-codes';
import { createTestApp, type TestApp, type TestClient } from '../../tests/setup/test-app';
import { dbTargets } from '../../tests/setup/test-db';
import { stripeConfigFrom } from '../features/payments/stripe/stripe.config';
import type { StaffRole } from '../../shared/roles';
import type { Access } from '../lib/route';
import type { OpenApiDocument } from '../openapi/document';
import {
  addressSequence,
  apiDocument,
  apiOperations,
  createFixtures,
  errorBodyProblem,
  fillPath,
  minimalBody,
  rawRequest,
  sampleValue,
  type ApiOperation,
  type FixtureId,
  type Fixtures,
} from './api-surface';

const ROLES = [
  'anonymous',
  'unverified',
  'otherCustomer',
  'customer',
  'support',
  'finance',
  'admin',
] as const;
type Role = (typeof ROLES)[number];

/**
 * What a role gets:
 * - an error code: exactly that answer (its status and its `code`);
 * - `allowed`: past the access check: 2xx or a 4xx other than 401/403 (the minimal body may be
 *   refused with 400, a state change with 409…), never a 5xx;
 * - `ok`: a 2xx;
 * - `unsigned`: a Stripe webhook without a valid signature: 400, or 404 while Stripe is not
 *   configured; never a 2xx.
 */
type Outcome =
  | 'allowed'
  | 'ok'
  | 'unsigned'
  | Extract<ErrorCode, 'UNAUTHENTICATED' | 'EMAIL_NOT_VERIFIED' | 'FORBIDDEN' | 'NOT_FOUND'>;
type RoleOutcomes = Record<Role, Outcome>;

/** The same outcome for every role. */
function every(outcome: Outcome): RoleOutcomes {
  return Object.fromEntries(ROLES.map((r) => [r, outcome])) as RoleOutcomes;
}
const OPEN = every('allowed');
const OPEN_OK = every('ok');
const CUSTOMER: RoleOutcomes = {
  ...every('allowed'),
  anonymous: 'UNAUTHENTICATED',
  unverified: 'EMAIL_NOT_VERIFIED',
};
const CUSTOMER_OK: RoleOutcomes = { ...every('ok'), ...pick(CUSTOMER, 'anonymous', 'unverified') };
/** A customer route on customer A's resource: only A sees it; even staff get 404 here. */
const OWNED_BY_A: RoleOutcomes = {
  ...every('NOT_FOUND'),
  ...pick(CUSTOMER, 'anonymous', 'unverified'),
  customer: 'allowed',
};
const OWNED_BY_A_OK: RoleOutcomes = { ...OWNED_BY_A, customer: 'ok' };
const STRIPE = every('unsigned');

function pick(outcomes: RoleOutcomes, ...roles: Role[]): Partial<RoleOutcomes> {
  return Object.fromEntries(roles.map((r) => [r, outcomes[r]]));
}

/** A back-office route: `outcome` for the staff roles named, FORBIDDEN for everyone else signed in. */
function staff(outcome: Outcome, ...roles: StaffRole[]): RoleOutcomes {
  const out: RoleOutcomes = {
    ...every('FORBIDDEN'),
    anonymous: 'UNAUTHENTICATED',
    unverified: 'EMAIL_NOT_VERIFIED',
  };
  for (const r of roles) out[r] = outcome;
  return out;
}

type Expected = {
  access: Access;
  /** `admin` routes: exactly the staff roles the route definition names (required for them). */
  staffRoles?: StaffRole[];
  roles: RoleOutcomes;
  /** Which fixture fills each path parameter (the same id for every role). */
  path?: Record<string, FixtureId>;
};

/** One entry per operationId of the document. */
const EXPECTED: Record<string, Expected> = {
  // Documentation
  getOpenApiDocument: { access: 'public', roles: OPEN_OK },
  getApiDocsPage: { access: 'public', roles: OPEN_OK },
  // Account
  getMe: { access: 'customer', roles: CUSTOMER_OK },
  updateMe: { access: 'customer', roles: CUSTOMER },
  // Sign-in methods and the account's security
  signInMethods: { access: 'public', roles: OPEN_OK },
  mySecurity: { access: 'customer', roles: CUSTOMER_OK },
  removeMyPhone: { access: 'customer', roles: CUSTOMER_OK },
  mySessions: { access: 'customer', roles: CUSTOMER_OK },
  endMyOtherSessions: { access: 'customer', roles: CUSTOMER_OK },
  endMySession: { access: 'customer', roles: OWNED_BY_A, path: { id: 'sessionA' } },
  exportMyData: { access: 'customer', roles: CUSTOMER_OK },
  // The minimal body has a wrong password: refused with 400, never deleting anything.
  deleteMyAccount: { access: 'customer', roles: CUSTOMER },
  // Contact (a session is read when sent)
  sendContactMessage: { access: 'optional', roles: OPEN },
  // API keys and webhooks
  createApiKey: { access: 'customer', roles: CUSTOMER },
  listApiKeys: { access: 'customer', roles: CUSTOMER_OK },
  revokeApiKey: { access: 'customer', roles: OWNED_BY_A, path: { id: 'apiKey' } },
  createWebhookEndpoint: { access: 'customer', roles: CUSTOMER },
  listWebhookEndpoints: { access: 'customer', roles: CUSTOMER_OK },
  deleteWebhookEndpoint: { access: 'customer', roles: OWNED_BY_A, path: { id: 'webhookEndpoint' } },
  enableWebhookEndpoint: { access: 'customer', roles: OWNED_BY_A, path: { id: 'webhookEndpoint' } },
  listWebhookDeliveries: {
    access: 'customer',
    roles: OWNED_BY_A,
    path: { id: 'webhookEndpoint' },
  },
  resendWebhookDelivery: {
    access: 'customer',
    roles: OWNED_BY_A,
    path: { id: 'webhookEndpoint', deliveryId: 'webhookDelivery' },
  },
  // The reseller protocols authenticate with a key in the form and answer in their own format.
  dhruFusionApi: { access: 'protocol', roles: OPEN_OK },
  smmPanelApi: { access: 'protocol', roles: OPEN_OK },
  smmPanelApiGet: { access: 'protocol', roles: OPEN_OK },
  // Wallet
  getWallet: { access: 'customer', roles: CUSTOMER_OK },
  listWalletMovements: { access: 'customer', roles: CUSTOMER_OK },
  listTopups: { access: 'customer', roles: CUSTOMER_OK },
  // Top-ups
  listFundingMethods: { access: 'customer', roles: CUSTOMER_OK },
  getCardTopupConfig: { access: 'customer', roles: CUSTOMER_OK },
  createCardCheckout: { access: 'customer', roles: CUSTOMER },
  redeemVoucher: { access: 'customer', roles: CUSTOMER },
  createManualTopup: { access: 'customer', roles: CUSTOMER },
  listManualTopups: { access: 'customer', roles: CUSTOMER_OK },
  // The methods list is public (prices before signing in); a top-up is its owner's alone.
  listPaymentMethods: { access: 'public', roles: OPEN_OK },
  getTopup: { access: 'customer', roles: OWNED_BY_A_OK, path: { id: 'topup' } },
  // The receipt service lets the staff who handle payments (admin, finance) read any receipt,
  // through this route too; support gets 404 like any other account.
  getManualTopupReceipt: {
    access: 'customer',
    roles: { ...OWNED_BY_A_OK, admin: 'ok', finance: 'ok' },
    path: { id: 'topup' },
  },
  receiveStripeWebhook: { access: 'stripe', roles: STRIPE },
  // PayPal is not configured in the matrix's app: the customer routes answer 404 past the access
  // check; the webhook 404 (never a 2xx).
  createPaypalTopup: { access: 'customer', roles: CUSTOMER },
  capturePaypalTopup: { access: 'customer', roles: OWNED_BY_A, path: { id: 'topup' } },
  receivePaypalWebhook: { access: 'public', roles: STRIPE },
  // Numbered receipts: the customer's own; the PDF of A's receipt only to A (staff included: 404).
  listMyReceipts: { access: 'customer', roles: CUSTOMER_OK },
  downloadMyReceiptPdf: { access: 'customer', roles: OWNED_BY_A_OK, path: { id: 'receipt' } },
  // Crypto top-ups (NOWPayments): 404 while not configured; the IPN is signed, not a session.
  createCryptoTopup: { access: 'customer', roles: CUSTOMER },
  receiveNowPaymentsIpn: { access: 'public', roles: every('unsigned') },
  // Mercado Pago: not configured in the matrix's app, so both answer 404 (the customer's after
  // the access check); its webhook is public (signed with x-signature, checked by the service).
  createMercadoPagoTopup: { access: 'customer', roles: CUSTOMER },
  receiveMercadoPagoWebhook: { access: 'public', roles: every('NOT_FOUND') },
  // Telegram notifications: every account chooses its own (the kinds by role, checked by the
  // service); the webhook is Telegram's, with its secret header instead of a session.
  getMyNotifications: { access: 'customer', roles: CUSTOMER_OK },
  updateMyNotifications: { access: 'customer', roles: CUSTOMER_OK },
  createTelegramLink: { access: 'customer', roles: CUSTOMER_OK },
  unlinkTelegram: { access: 'customer', roles: CUSTOMER_OK },
  receiveTelegramUpdate: { access: 'public', roles: every('UNAUTHENTICATED') },
  // Catalogue
  listServices: { access: 'customer', roles: CUSTOMER_OK },
  listCategories: { access: 'customer', roles: CUSTOMER_OK },
  getService: { access: 'customer', roles: CUSTOMER_OK, path: { id: 'service' } },
  // Orders
  placeOrder: { access: 'customer', roles: CUSTOMER },
  placeBulkImeiOrder: { access: 'customer', roles: CUSTOMER },
  listOrders: { access: 'customer', roles: CUSTOMER_OK },
  getOrderSummary: { access: 'customer', roles: CUSTOMER_OK },
  exportOrdersCsv: { access: 'customer', roles: CUSTOMER_OK },
  getOrder: { access: 'customer', roles: OWNED_BY_A_OK, path: { id: 'order' } },
  cancelOrder: { access: 'customer', roles: OWNED_BY_A, path: { id: 'order' } },
  requestRefill: { access: 'customer', roles: OWNED_BY_A, path: { id: 'order' } },
  // A file for a service's file field, and the download of the one an order of A carries.
  uploadOrderFile: { access: 'customer', roles: CUSTOMER },
  downloadOrderFile: {
    access: 'customer',
    roles: OWNED_BY_A_OK,
    path: { id: 'fileOrder', fileId: 'orderFile' },
  },
  // Administration: catalogue
  adminListServices: {
    access: 'admin',
    roles: staff('ok', 'admin'),
    staffRoles: ['admin'],
  },
  adminCreateService: {
    access: 'admin',
    roles: staff('allowed', 'admin'),
    staffRoles: ['admin'],
  },
  adminReorderServices: {
    access: 'admin',
    roles: staff('allowed', 'admin'),
    staffRoles: ['admin'],
  },
  adminBulkPriceChange: {
    access: 'admin',
    roles: staff('allowed', 'admin'),
    staffRoles: ['admin'],
  },
  adminGetService: {
    access: 'admin',
    roles: staff('ok', 'admin'),
    staffRoles: ['admin'],
    path: { id: 'service' },
  },
  adminServiceHistory: {
    access: 'admin',
    roles: staff('ok', 'admin'),
    staffRoles: ['admin'],
    path: { id: 'service' },
  },
  adminUpdateService: {
    access: 'admin',
    roles: staff('allowed', 'admin'),
    staffRoles: ['admin'],
    path: { id: 'service' },
  },
  // Stock of a service (decision 0023): the catalogue area, admins only.
  adminGetStock: {
    access: 'admin',
    roles: staff('ok', 'admin'),
    staffRoles: ['admin'],
    path: { id: 'service' },
  },
  adminUploadStock: {
    access: 'admin',
    roles: staff('allowed', 'admin'),
    staffRoles: ['admin'],
    path: { id: 'service' },
  },
  adminExportStock: {
    access: 'admin',
    roles: staff('ok', 'admin'),
    staffRoles: ['admin'],
    path: { id: 'service' },
  },
  // Administration: orders
  adminListOrders: {
    access: 'admin',
    roles: staff('ok', 'admin', 'support', 'finance'),
    staffRoles: ['admin', 'support', 'finance'],
  },
  adminPreviewBulkComplete: {
    access: 'admin',
    roles: staff('ok', 'admin', 'support'),
    staffRoles: ['admin', 'support'],
  },
  adminBulkCompleteOrders: {
    access: 'admin',
    roles: staff('allowed', 'admin', 'support'),
    staffRoles: ['admin', 'support'],
  },
  adminBulkOrderAction: {
    access: 'admin',
    roles: staff('allowed', 'admin', 'support'),
    staffRoles: ['admin', 'support'],
  },
  adminOverview: {
    access: 'admin',
    roles: staff('ok', 'admin', 'support', 'finance'),
    staffRoles: ['admin', 'support', 'finance'],
  },
  adminListSnippets: {
    access: 'admin',
    roles: staff('ok', 'admin', 'support'),
    staffRoles: ['admin', 'support'],
  },
  adminCreateSnippet: {
    access: 'admin',
    roles: staff('allowed', 'admin', 'support'),
    staffRoles: ['admin', 'support'],
  },
  adminUpdateSnippet: {
    access: 'admin',
    roles: staff('allowed', 'admin', 'support'),
    staffRoles: ['admin', 'support'],
    path: { id: 'order' },
  },
  adminDeleteSnippet: {
    access: 'admin',
    roles: staff('allowed', 'admin', 'support'),
    staffRoles: ['admin', 'support'],
    path: { id: 'order' },
  },
  adminGetOrder: {
    access: 'admin',
    roles: staff('ok', 'admin', 'support', 'finance'),
    staffRoles: ['admin', 'support', 'finance'],
    path: { id: 'order' },
  },
  adminTakeOrder: {
    access: 'admin',
    roles: staff('allowed', 'admin', 'support'),
    staffRoles: ['admin', 'support'],
    path: { id: 'order' },
  },
  adminCompleteOrder: {
    access: 'admin',
    roles: staff('allowed', 'admin', 'support'),
    staffRoles: ['admin', 'support'],
    path: { id: 'order' },
  },
  adminRejectOrder: {
    access: 'admin',
    roles: staff('allowed', 'admin', 'support'),
    staffRoles: ['admin', 'support'],
    path: { id: 'order' },
  },
  adminReplaceStockItem: {
    access: 'admin',
    roles: staff('allowed', 'admin', 'support'),
    staffRoles: ['admin', 'support'],
    path: { id: 'order' },
  },
  adminListRefills: {
    access: 'admin',
    roles: staff('ok', 'admin', 'support'),
    staffRoles: ['admin', 'support'],
  },
  adminCompleteRefill: {
    access: 'admin',
    roles: staff('allowed', 'admin', 'support'),
    staffRoles: ['admin', 'support'],
    path: { id: 'refill' },
  },
  adminRejectRefill: {
    access: 'admin',
    roles: staff('allowed', 'admin', 'support'),
    staffRoles: ['admin', 'support'],
    path: { id: 'refill' },
  },
  adminOrderSupplierLog: {
    access: 'admin',
    roles: staff('ok', 'admin'),
    staffRoles: ['admin'],
    path: { id: 'order' },
  },
  adminGetReport: {
    access: 'admin',
    roles: staff('ok', 'admin', 'finance'),
    staffRoles: ['admin', 'finance'],
  },
  adminListReceipts: {
    access: 'admin',
    roles: staff('ok', 'admin', 'finance'),
    staffRoles: ['admin', 'finance'],
  },
  adminDownloadReceiptPdf: {
    access: 'admin',
    roles: staff('ok', 'admin', 'finance'),
    staffRoles: ['admin', 'finance'],
    path: { id: 'receipt' },
  },
  adminDownloadOrderFile: {
    access: 'admin',
    roles: staff('ok', 'admin', 'support'),
    staffRoles: ['admin', 'support'],
    path: { id: 'fileOrder', fileId: 'orderFile' },
  },
  adminConfirmDispatch: {
    access: 'admin',
    roles: staff('allowed', 'admin', 'support'),
    staffRoles: ['admin', 'support'],
    path: { id: 'order' },
  },
  adminResendDispatch: {
    access: 'admin',
    roles: staff('allowed', 'admin', 'support'),
    staffRoles: ['admin', 'support'],
    path: { id: 'order' },
  },
  // Administration: suppliers (every call to the fixture supplier fails fast: unreachable)
  adminListSuppliers: {
    access: 'admin',
    roles: staff('ok', 'admin'),
    staffRoles: ['admin'],
  },
  adminCreateSupplier: {
    access: 'admin',
    roles: staff('allowed', 'admin'),
    staffRoles: ['admin'],
  },
  adminGetSupplier: {
    access: 'admin',
    roles: staff('ok', 'admin'),
    staffRoles: ['admin'],
    path: { id: 'supplier' },
  },
  adminUpdateSupplier: {
    access: 'admin',
    roles: staff('allowed', 'admin'),
    staffRoles: ['admin'],
    path: { id: 'supplier' },
  },
  adminTestSupplier: {
    access: 'admin',
    roles: staff('ok', 'admin'),
    staffRoles: ['admin'],
    path: { id: 'supplier' },
  },
  adminListRemoteServices: {
    access: 'admin',
    roles: staff('ok', 'admin'),
    staffRoles: ['admin'],
    path: { id: 'supplier' },
  },
  adminImportServices: {
    access: 'admin',
    roles: staff('allowed', 'admin'),
    staffRoles: ['admin'],
    path: { id: 'supplier' },
  },
  adminSupplierLog: {
    access: 'admin',
    roles: staff('ok', 'admin'),
    staffRoles: ['admin'],
    path: { id: 'supplier' },
  },
  adminSetServiceRoutes: {
    access: 'admin',
    roles: staff('allowed', 'admin'),
    staffRoles: ['admin'],
    path: { id: 'service' },
  },
  // Administration: manual top-ups and methods
  adminListManualTopups: {
    access: 'admin',
    roles: staff('ok', 'admin', 'finance'),
    staffRoles: ['admin', 'finance'],
  },
  adminApproveManualTopup: {
    access: 'admin',
    roles: staff('allowed', 'admin', 'finance'),
    staffRoles: ['admin', 'finance'],
    path: { id: 'topup' },
  },
  adminRejectManualTopup: {
    access: 'admin',
    roles: staff('allowed', 'admin', 'finance'),
    staffRoles: ['admin', 'finance'],
    path: { id: 'topup' },
  },
  adminGetManualTopupReceipt: {
    access: 'admin',
    roles: staff('ok', 'admin', 'finance'),
    staffRoles: ['admin', 'finance'],
    path: { id: 'topup' },
  },
  // Administration: fees and limits, payment settings, held top-ups, flagged accounts
  adminListGatewaySettings: {
    access: 'admin',
    roles: staff('ok', 'admin', 'finance'),
    staffRoles: ['admin', 'finance'],
  },
  // The minimal body changes nothing ("Indica al menos un cambio"): 400.
  adminUpdateGatewaySetting: {
    access: 'admin',
    roles: staff('allowed', 'admin', 'finance'),
    staffRoles: ['admin', 'finance'],
    path: { method: 'gatewayMethod' },
  },
  adminGetPaymentSettings: {
    access: 'admin',
    roles: staff('ok', 'admin', 'finance'),
    staffRoles: ['admin', 'finance'],
  },
  adminUpdatePaymentSettings: {
    access: 'admin',
    roles: staff('allowed', 'admin', 'finance'),
    staffRoles: ['admin', 'finance'],
  },
  adminListHeldTopups: {
    access: 'admin',
    roles: staff('ok', 'admin', 'finance'),
    staffRoles: ['admin', 'finance'],
  },
  // Customer A's manual request is not held: 409.
  adminApproveHeldTopup: {
    access: 'admin',
    roles: staff('allowed', 'admin', 'finance'),
    staffRoles: ['admin', 'finance'],
    path: { id: 'topup' },
  },
  adminRejectHeldTopup: {
    access: 'admin',
    roles: staff('allowed', 'admin', 'finance'),
    staffRoles: ['admin', 'finance'],
    path: { id: 'topup' },
  },
  adminListAccountFlags: {
    access: 'admin',
    roles: staff('ok', 'admin', 'finance'),
    staffRoles: ['admin', 'finance'],
  },
  // No flag has that id: 404 past the access check.
  adminClearAccountFlag: {
    access: 'admin',
    roles: staff('allowed', 'admin', 'finance'),
    staffRoles: ['admin', 'finance'],
    path: { id: 'topup' },
  },
  adminListFundingMethods: {
    access: 'admin',
    roles: staff('ok', 'admin', 'finance'),
    staffRoles: ['admin', 'finance'],
  },
  adminCreateFundingMethod: {
    access: 'admin',
    roles: staff('allowed', 'admin', 'finance'),
    staffRoles: ['admin', 'finance'],
  },
  adminUpdateFundingMethod: {
    access: 'admin',
    roles: staff('allowed', 'admin', 'finance'),
    staffRoles: ['admin', 'finance'],
    path: { id: 'method' },
  },
  // Administration: vouchers
  adminCreateVoucherBatch: {
    access: 'admin',
    roles: staff('allowed', 'admin', 'finance'),
    staffRoles: ['admin', 'finance'],
  },
  adminListVoucherBatches: {
    access: 'admin',
    roles: staff('ok', 'admin', 'finance'),
    staffRoles: ['admin', 'finance'],
  },
  adminExportVoucherBatch: {
    access: 'admin',
    roles: staff('ok', 'admin', 'finance'),
    staffRoles: ['admin', 'finance'],
    path: { id: 'voucherBatch' },
  },
  // Administration: customers
  adminListCustomers: {
    access: 'admin',
    roles: staff('ok', 'admin', 'support', 'finance'),
    staffRoles: ['admin', 'support', 'finance'],
  },
  adminAdjustBalance: {
    access: 'admin',
    roles: staff('allowed', 'admin', 'finance'),
    staffRoles: ['admin', 'finance'],
    path: { id: 'customerA' },
  },
  adminGetCreditLimit: {
    access: 'admin',
    roles: staff('ok', 'admin', 'finance'),
    staffRoles: ['admin', 'finance'],
    path: { id: 'customerA' },
  },
  adminSetCreditLimit: {
    access: 'admin',
    roles: staff('allowed', 'admin', 'finance'),
    staffRoles: ['admin', 'finance'],
    path: { id: 'customerA' },
  },
  adminUserSecurity: {
    access: 'admin',
    roles: staff('ok', 'admin', 'support', 'finance'),
    staffRoles: ['admin', 'support', 'finance'],
    path: { id: 'bystander' },
  },
  adminEndUserSessions: {
    access: 'admin',
    roles: staff('ok', 'admin'),
    staffRoles: ['admin'],
    path: { id: 'bystander' },
  },
  adminBlockUser: {
    access: 'admin',
    roles: staff('allowed', 'admin'),
    staffRoles: ['admin'],
    path: { id: 'bystander' },
  },
  adminUnblockUser: {
    access: 'admin',
    roles: staff('ok', 'admin'),
    staffRoles: ['admin'],
    path: { id: 'bystander' },
  },
  adminGetCustomer: {
    access: 'admin',
    roles: staff('ok', 'admin', 'support', 'finance'),
    staffRoles: ['admin', 'support', 'finance'],
    path: { id: 'customerA' },
  },
  adminListCustomerOrders: {
    access: 'admin',
    roles: staff('ok', 'admin', 'support', 'finance'),
    staffRoles: ['admin', 'support', 'finance'],
    path: { id: 'customerA' },
  },
  adminListCustomerMovements: {
    access: 'admin',
    roles: staff('ok', 'admin', 'finance'),
    staffRoles: ['admin', 'finance'],
    path: { id: 'customerA' },
  },
  adminListCustomerPayments: {
    access: 'admin',
    roles: staff('ok', 'admin', 'finance'),
    staffRoles: ['admin', 'finance'],
    path: { id: 'customerA' },
  },
  adminListCustomerNotes: {
    access: 'admin',
    roles: staff('ok', 'admin', 'support', 'finance'),
    staffRoles: ['admin', 'support', 'finance'],
    path: { id: 'customerA' },
  },
  adminAddCustomerNote: {
    access: 'admin',
    roles: staff('allowed', 'admin', 'finance'),
    staffRoles: ['admin', 'finance'],
    path: { id: 'customerA' },
  },
  adminBulkUpdateServices: {
    access: 'admin',
    roles: staff('allowed', 'admin'),
    staffRoles: ['admin'],
  },
  // Administration: staff and the audit log (admins only)
  adminListStaff: { access: 'admin', roles: staff('ok', 'admin'), staffRoles: ['admin'] },
  adminInviteStaff: { access: 'admin', roles: staff('allowed', 'admin'), staffRoles: ['admin'] },
  // customerA is not staff: 404 for an admin, without changing anything.
  adminChangeStaffRole: {
    access: 'admin',
    roles: staff('NOT_FOUND', 'admin'),
    staffRoles: ['admin'],
    path: { id: 'customerA' },
  },
  adminRemoveStaff: {
    access: 'admin',
    roles: staff('NOT_FOUND', 'admin'),
    staffRoles: ['admin'],
    path: { id: 'customerA' },
  },
  adminListAudit: { access: 'admin', roles: staff('ok', 'admin'), staffRoles: ['admin'] },
  // The invitation link's page (no session): an unknown token is 404 for everyone.
  getStaffInvitation: { access: 'public', roles: OPEN },
  acceptStaffInvitation: { access: 'public', roles: OPEN },
  // Price groups and a customer's prices: catalogue, admins only.
  adminListPriceGroups: { access: 'admin', roles: staff('ok', 'admin'), staffRoles: ['admin'] },
  adminCreatePriceGroup: {
    access: 'admin',
    roles: staff('allowed', 'admin'),
    staffRoles: ['admin'],
  },
  adminGetPriceGroup: {
    access: 'admin',
    roles: staff('allowed', 'admin'),
    staffRoles: ['admin'],
    path: { id: 'priceGroup' },
  },
  adminUpdatePriceGroup: {
    access: 'admin',
    roles: staff('allowed', 'admin'),
    staffRoles: ['admin'],
    path: { id: 'priceGroup' },
  },
  adminDeletePriceGroup: {
    access: 'admin',
    roles: staff('allowed', 'admin'),
    staffRoles: ['admin'],
    path: { id: 'priceGroup' },
  },
  adminGetCustomerPrices: {
    access: 'admin',
    roles: staff('ok', 'admin'),
    staffRoles: ['admin'],
    path: { id: 'customerA' },
  },
  adminSetCustomerPriceGroup: {
    access: 'admin',
    roles: staff('allowed', 'admin'),
    staffRoles: ['admin'],
    path: { id: 'customerA' },
  },
  adminSetCustomerSpecialPrices: {
    access: 'admin',
    roles: staff('allowed', 'admin'),
    staffRoles: ['admin'],
    path: { id: 'customerA' },
  },
  adminListDebts: {
    access: 'admin',
    roles: staff('ok', 'admin', 'finance'),
    staffRoles: ['admin', 'finance'],
  },
  testWebhookEndpoint: { access: 'customer', roles: OWNED_BY_A, path: { id: 'webhookEndpoint' } },
  // Support tickets: a customer sees only their own (another's is 404, staff included: staff
  // use the desk's routes); the desk is admin and support, never finance.
  countUnreadTickets: { access: 'customer', roles: CUSTOMER_OK },
  listTickets: { access: 'customer', roles: CUSTOMER_OK },
  // The minimal body opens a ticket (or is refused at the rate limit): past the access check.
  createTicket: { access: 'customer', roles: CUSTOMER },
  getTicket: { access: 'customer', roles: OWNED_BY_A_OK, path: { id: 'ticket' } },
  replyTicket: { access: 'customer', roles: OWNED_BY_A, path: { id: 'ticket' } },
  closeTicket: { access: 'customer', roles: OWNED_BY_A, path: { id: 'ticket' } },
  reopenTicket: { access: 'customer', roles: OWNED_BY_A, path: { id: 'ticket' } },
  // The file of an internal note: not even the ticket's customer can download it.
  downloadTicketAttachment: {
    access: 'customer',
    roles: { ...OWNED_BY_A, customer: 'NOT_FOUND' },
    path: { id: 'ticket', attachmentId: 'ticketNoteAttachment' },
  },
  adminListTickets: {
    access: 'admin',
    roles: staff('ok', 'admin', 'support'),
    staffRoles: ['admin', 'support'],
  },
  adminListTicketAssignees: {
    access: 'admin',
    roles: staff('ok', 'admin', 'support'),
    staffRoles: ['admin', 'support'],
  },
  adminBulkCloseTickets: {
    access: 'admin',
    roles: staff('allowed', 'admin', 'support'),
    staffRoles: ['admin', 'support'],
  },
  adminGetTicket: {
    access: 'admin',
    roles: staff('ok', 'admin', 'support'),
    staffRoles: ['admin', 'support'],
    path: { id: 'ticket' },
  },
  adminUpdateTicket: {
    access: 'admin',
    roles: staff('allowed', 'admin', 'support'),
    staffRoles: ['admin', 'support'],
    path: { id: 'ticket' },
  },
  adminReplyTicket: {
    access: 'admin',
    roles: staff('allowed', 'admin', 'support'),
    staffRoles: ['admin', 'support'],
    path: { id: 'ticket' },
  },
  adminDownloadTicketAttachment: {
    access: 'admin',
    roles: staff('ok', 'admin', 'support'),
    staffRoles: ['admin', 'support'],
    path: { id: 'ticket', attachmentId: 'ticketNoteAttachment' },
  },
  // Announcements: customers see those of their audience (staff none: 404 when marking one).
  listAnnouncements: { access: 'customer', roles: CUSTOMER_OK },
  markAnnouncementRead: {
    access: 'customer',
    roles: {
      ...CUSTOMER_OK,
      support: 'NOT_FOUND',
      finance: 'NOT_FOUND',
      admin: 'NOT_FOUND',
    },
    path: { id: 'announcement' },
  },
  adminListAnnouncements: {
    access: 'admin',
    roles: staff('ok', 'admin'),
    staffRoles: ['admin'],
  },
  adminCreateAnnouncement: {
    access: 'admin',
    roles: staff('allowed', 'admin'),
    staffRoles: ['admin'],
  },
  adminUpdateAnnouncement: {
    access: 'admin',
    roles: staff('allowed', 'admin'),
    staffRoles: ['admin'],
    path: { id: 'announcement' },
  },
  adminDeleteAnnouncement: {
    access: 'admin',
    roles: staff('allowed', 'admin'),
    staffRoles: ['admin'],
    path: { id: 'announcement' },
  },
};

const CODE_STATUS: Record<string, number> = {
  UNAUTHENTICATED: 401,
  EMAIL_NOT_VERIFIED: 403,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
};

/** Why an answer does not match the outcome (null when it does). */
function mismatch(
  outcome: Outcome,
  status: number,
  code: string | undefined,
  stripeConfigured: boolean,
): string | null {
  if (status >= 500) return `server error ${status} (${code})`;
  switch (outcome) {
    case 'allowed':
      return status === 401 || status === 403 ? `refused: ${status} ${code}` : null;
    case 'ok':
      return status >= 200 && status < 300 ? null : `expected 2xx, got ${status} ${code}`;
    case 'unsigned': {
      const accepted = stripeConfigured ? [400] : [400, 404];
      return accepted.includes(status) ? null : `expected ${accepted.join(' or ')}, got ${status}`;
    }
    default:
      return status === CODE_STATUS[outcome] && code === outcome
        ? null
        : `expected ${CODE_STATUS[outcome]} ${outcome}, got ${status} ${code}`;
  }
}

describe.each(dbTargets())('authorization matrix on %s', (target) => {
  let t: TestApp;
  let doc: OpenApiDocument;
  let fx: Fixtures;
  let setupSeconds = 0;
  let stripeApp: TestApp['app'];
  const nextIp = addressSequence('10.1');

  beforeAll(async () => {
    const setupStarted = performance.now();
    t = await createTestApp(target, {
      // Telegram on, so its webhook answers 401 without the secret (not 404); the bot's name is
      // given, so linking never calls the Bot API.
      TELEGRAM_BOT_TOKEN: '123456789:AAMatrixTokenNeverCalled_0123456789',
      TELEGRAM_WEBHOOK_SECRET: 'telegram-matrix-secret',
      TELEGRAM_BOT_USERNAME: 'cometa_matrix_bot',
      TELEGRAM_API_BASE: 'http://127.0.0.1:9',
    });
    doc = apiDocument(t);
    fx = await createFixtures(t);
    setupSeconds = (performance.now() - setupStarted) / 1000;
    const stripe = stripeConfigFrom({
      STRIPE_SECRET_KEY: 'sk_test_cometa_matrix',
      STRIPE_WEBHOOK_SECRET: 'whsec_cometa_matrix',
      // Never called: a webhook's signature is checked before anything else.
      STRIPE_API_BASE: 'http://127.0.0.1:9',
    });
    stripeApp = t.appWith({ env: { ...t.env, stripe } });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('has an entry for every documented operation, with the documented access', () => {
    const ops = apiOperations(doc);
    expect(ops.length).toBeGreaterThan(0);
    const missing = ops.filter((op) => !(op.operationId in EXPECTED));
    expect(
      missing.map((op) => `${op.operationId} (${op.method} ${op.path}, ${op.access})`),
      'operations without an entry in EXPECTED: add one',
    ).toEqual([]);
    const changed = ops
      .filter((op) => EXPECTED[op.operationId] && EXPECTED[op.operationId]!.access !== op.access)
      .map(
        (op) =>
          `${op.operationId}: documented ${op.access}, table ${EXPECTED[op.operationId]!.access}`,
      );
    expect(changed, 'access level differs from the table').toEqual([]);
    const staffChanged = ops
      .filter((op) => op.access === 'admin')
      .filter(
        (op) =>
          [...op.roles].sort().join() !==
          [...(EXPECTED[op.operationId]?.staffRoles ?? [])].sort().join(),
      )
      .map(
        (op) =>
          `${op.operationId}: route allows ${op.roles.join('+')}, table ${(EXPECTED[op.operationId]?.staffRoles ?? []).join('+')}`,
      );
    expect(staffChanged, 'staff roles differ from the table').toEqual([]);
    for (const op of ops) {
      const names = op.pathParams.map((p) => p.name).sort();
      expect(Object.keys(EXPECTED[op.operationId]?.path ?? {}).sort(), op.operationId).toEqual(
        names,
      );
    }
  });

  it('serves each file of a ticket only to the people in it, and internal notes only to the desk', async () => {
    const clients: Record<Role, TestClient | null> = {
      anonymous: null,
      unverified: fx.unverified.client,
      otherCustomer: fx.customerB.client,
      customer: fx.customerA.client,
      support: fx.support.client,
      finance: fx.finance.client,
      admin: fx.admin.client,
    };
    const ticket = fx.ids.ticket;
    const cases: [string, RoleOutcomes][] = [
      [`/api/tickets/${ticket}/attachments/${fx.ids.ticketAttachment}`, OWNED_BY_A_OK],
      [
        `/api/tickets/${ticket}/attachments/${fx.ids.ticketNoteAttachment}`,
        { ...OWNED_BY_A, customer: 'NOT_FOUND' },
      ],
      [
        `/api/admin/tickets/${ticket}/attachments/${fx.ids.ticketAttachment}`,
        staff('ok', 'admin', 'support'),
      ],
      [
        `/api/admin/tickets/${ticket}/attachments/${fx.ids.ticketNoteAttachment}`,
        staff('ok', 'admin', 'support'),
      ],
      [`/api/tickets/${ticket}`, OWNED_BY_A_OK],
      [`/api/admin/tickets/${ticket}`, staff('ok', 'admin', 'support')],
    ];
    const failures: string[] = [];
    for (const [url, outcomes] of cases)
      for (const role of ROLES) {
        const res = await rawRequest(t, { method: 'GET', url, as: clients[role], ip: nextIp() });
        const text = await res.text();
        let code: string | undefined;
        if (res.status >= 400) code = (JSON.parse(text) as { code?: string }).code;
        const problem = mismatch(outcomes[role], res.status, code, false);
        if (problem) failures.push(`GET ${url} as ${role}: ${problem}`);
        // The internal note's text reaches the desk's detail only.
        const seesNote = text.includes('Nota interna: revisar con el proveedor.');
        const deskDetail = url === `/api/admin/tickets/${ticket}` && res.status === 200;
        if (seesNote !== deskDetail)
          failures.push(`GET ${url} as ${role}: internal note ${seesNote ? 'shown' : 'missing'}`);
      }
    expect(failures).toEqual([]);
  });

  it('lets no one but the buyer read a sold stock item (other customer, support, finance; admin sees it masked)', async () => {
    const id = fx.ids.stockOrder;
    const [item] = fx.soldItems;
    const mine = await fx.customerA.client.get(`/api/orders/${id}`);
    expect(mine.status).toBe(200);
    expect(((await mine.json()) as { result: string }).result).toBe(item);
    expect((await fx.customerB.client.get(`/api/orders/${id}`)).status).toBe(404);
    for (const who of [fx.support, fx.finance, fx.admin]) {
      const one = await who.client.get(`/api/admin/orders/${id}`);
      expect(one.status).toBe(200);
      const body = (await one.json()) as { result: string };
      expect(body.result).toBe(`••••${item!.slice(-4)}`);
      const list = await who.client.get('/api/admin/orders');
      expect(await list.text()).not.toContain(item);
      const ofCustomer = await who.client.get(`/api/admin/users/${fx.customerA.id}/orders`);
      expect(await ofCustomer.text()).not.toContain(item);
    }
  });

  it('answers every operation × role as the table says, never leaking A’s data', async () => {
    const started = performance.now();
    const cpu = process.cpuUsage();
    const ops = apiOperations(doc).filter((op) => op.operationId in EXPECTED);
    const clients: Record<Role, TestClient | null> = {
      anonymous: null,
      unverified: fx.unverified.client,
      otherCustomer: fx.customerB.client,
      customer: fx.customerA.client,
      support: fx.support.client,
      finance: fx.finance.client,
      admin: fx.admin.client,
    };
    const failures: string[] = [];
    let requests = 0;
    let checks = 0;

    function requestFor(op: ApiOperation, expected: Expected) {
      const values = Object.fromEntries(
        Object.entries(expected.path ?? {}).map(([name, id]) => [name, fx.ids[id]]),
      );
      const query = new URLSearchParams();
      for (const p of op.queryParams) {
        if (p.required) query.set(p.name, p.example ?? String(sampleValue(doc, p.schema)));
      }
      const qs = query.size ? `?${query}` : '';
      const body = minimalBody(doc, op);
      return {
        url: `${fillPath(op.path, values)}${qs}`,
        headers: body === undefined ? undefined : { 'Content-Type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      };
    }

    for (const op of ops) {
      const expected = EXPECTED[op.operationId]!;
      const { url, headers, body } = requestFor(op, expected);
      for (const role of ROLES) {
        checks += 1;
        const apps =
          op.access === 'stripe'
            ? [
                { app: t.app, configured: false },
                { app: stripeApp, configured: true },
              ]
            : [{ app: t.app, configured: false }];
        for (const { app, configured } of apps) {
          requests += 1;
          const res = await rawRequest(t, {
            method: op.method,
            url,
            as: clients[role],
            ip: nextIp(),
            headers,
            body,
            app,
          });
          const text = await res.text();
          const where = `${op.operationId} ${op.method} ${url} as ${role}${configured ? ' (Stripe configured)' : ''}`;
          const shape = errorBodyProblem(res.status, res.headers.get('content-type'), text);
          if (shape)
            failures.push(`${where}: ${res.status} error body ${shape}: ${text.slice(0, 200)}`);
          let code: string | undefined;
          if (res.status >= 400) {
            try {
              code = (JSON.parse(text) as { code?: string }).code;
            } catch {
              code = undefined;
            }
          }
          const problem = mismatch(expected.roles[role], res.status, code, configured);
          if (problem) failures.push(`${where}: ${problem}: ${text.slice(0, 200)}`);
          // An item sold from stock reaches its buyer only: staff see its last 4 characters.
          if (role !== 'customer') {
            const items = fx.soldItems.filter((m) => text.includes(m));
            if (items.length)
              failures.push(
                `${where}: ${res.status} answer contains the sold item ${items.join(', ')}`,
              );
          }
          if (role === 'anonymous' || role === 'unverified' || role === 'otherCustomer') {
            const leaked = fx.privateMarkers.filter((m) => text.includes(m));
            if (leaked.length)
              failures.push(
                `${where}: ${res.status} answer contains customer A's ${leaked.join(', ')}`,
              );
          }
        }
      }
    }

    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    const cpuSeconds = (process.cpuUsage(cpu).user / 1e6).toFixed(1);
    process.stdout.write(
      `authz matrix on ${target}: ${ops.length} operations × ${ROLES.length} roles = ${checks} checks, ${requests} requests, ${failures.length} failures, app and fixtures ${setupSeconds.toFixed(1)}s + requests ${seconds}s (${cpuSeconds}s CPU)\n`,
    );
    const stale = Object.keys(EXPECTED).filter((id) => !ops.some((op) => op.operationId === id));
    if (stale.length)
      process.stdout.write(
        `authz matrix: table entries not in the document: ${stale.join(', ')}\n`,
      );
    expect(failures.length, `${failures.length} failures:\n${failures.join('\n')}`).toBe(0);
  });
});
