// The JSON the admin API answers with: the response schemas in shared/schemas, so a renamed
// field there fails the type check here.
import type { AdjustmentResult, CustomerSummary } from '../../../shared/schemas/admin';
import type { AdminRequestDto, MethodDto } from '../../../shared/schemas/funds';
import type { CreatedBatchDto, VoucherBatchDto } from '../../../shared/schemas/vouchers';
import type {
  AccountFlagDto,
  AdminPaymentDto,
  GatewaySettingDto,
  PaymentSettingsDto,
} from '../../../shared/schemas/payments';
import type { FormResult } from '../../lib/form-data';

export type PendingRequest = AdminRequestDto;
export type ManualMethod = MethodDto;
export type VoucherBatch = VoucherBatchDto;
export type CreatedBatch = CreatedBatchDto;
export type AdminUser = CustomerSummary;

export type AdjustResponse = AdjustmentResult;
export type HeldTopup = AdminPaymentDto;
export type AccountFlag = AccountFlagDto;
export type GatewaySetting = GatewaySettingDto;
export type PaymentSettings = PaymentSettingsDto;

export const ADMIN_INTENTS = [
  'approve',
  'reject',
  'create-method',
  'update-method',
  'create-batch',
  'search',
  'adjust',
  'approve-topup',
  'reject-topup',
  'clear-flag',
  'update-gateway',
  'update-settings',
] as const;
export type AdminIntent = (typeof ADMIN_INTENTS)[number];

/** What the page's clientAction answers; each fetcher only reads the fields of its intent. */
export type AdminActionResult = FormResult & {
  intent: AdminIntent | null;
  /** approve: the customer's available balance after the credit. */
  balance?: string;
  /** create-batch: the batch and its codes (shown once). */
  created?: CreatedBatch;
  /** create-method: the new method's id (resets the form). */
  methodId?: string;
  /** search: the customers found and the words searched. */
  users?: AdminUser[];
  query?: string;
  /** adjust: the customer's balance afterwards. */
  adjusted?: AdjustResponse;
};
