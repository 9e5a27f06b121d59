// The JSON Seguridad and the admin's customer view read: the response schemas in
// shared/schemas/security.ts, so a renamed field there fails the type check here.
import type {
  AdminUserSecurity,
  LinkedMethod,
  SecurityOverview,
  SessionInfo,
} from '../../../shared/schemas/security';
import type { CustomerSummary } from '../../../shared/schemas/admin';

export type Session = SessionInfo;
export type Method = LinkedMethod;
export type Overview = SecurityOverview;
export type CustomerSecurity = AdminUserSecurity;
export type Customer = CustomerSummary;
export type ProviderId = 'google' | 'oidc';

/** What the Seguridad forms send to the profile's clientAction (as JSON), by `intent`. */
export type SecurityPayload =
  | { intent: 'session-revoke'; id: string }
  | { intent: 'sessions-revoke-others' }
  | { intent: 'method-unlink'; providerId: string; accountId: string; label: string }
  | { intent: 'method-link'; provider: ProviderId }
  | { intent: 'phone-remove' }
  | { intent: 'phone-send'; phoneNumber: string }
  | { intent: 'phone-verify'; phoneNumber: string; code: string }
  | { intent: 'two-factor-disable'; password?: string; code?: string }
  | { intent: 'backup-codes'; password?: string; code?: string }
  | { intent: 'email-change'; newEmail: string }
  | { intent: 'account-delete'; password?: string; code?: string; confirm: string };

export type SecurityIntent = SecurityPayload['intent'];

/** What the clientAction answers; each fetcher only reads the fields of its intent. */
export type SecurityActionResult = {
  intent: SecurityIntent | null;
  ok: boolean;
  message?: string;
  formError?: string;
  /** Errors by input (`phoneNumber`, `code`, `password`, `newEmail`, `confirm`). */
  fields?: Record<string, string>;
  /** The API's error code, when the message alone is not enough (BALANCE_NOT_ZERO…). */
  code?: string;
  /** phone-send: the number the code went to (the form moves on to the code). */
  phoneNumber?: string;
  /** backup-codes: the new codes, shown once. */
  backupCodes?: string[];
};

/** The admin's customer page: its forms, by `intent` (form data). */
export type AdminCustomerIntent = 'revoke-sessions' | 'block' | 'unblock';

export type AdminCustomerResult = {
  intent: AdminCustomerIntent | null;
  ok: boolean;
  message?: string;
  formError?: string;
  /** Errors by input (`reason`). */
  fields?: Record<string, string>;
};

/**
 * Fetcher keys: fetchers that share a key share their state, so a section can read how an action
 * of one of its rows ended (the row itself may be gone by then).
 */
export const FETCHER_KEYS = {
  session: 'security-session',
  revokeOthers: 'security-revoke-others',
  method: 'security-method',
  phone: 'security-phone',
  twoFactorDisable: 'security-two-factor-disable',
  backupCodes: 'security-backup-codes',
  email: 'security-email',
  deleteAccount: 'security-delete',
} as const;
