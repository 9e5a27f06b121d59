// The JSON the key and webhook API answers with: the response schemas in shared/schemas, so a
// renamed field there fails the type check here.
import type {
  ApiKeyDto,
  CreatedApiKey,
  CreatedWebhookEndpoint,
  WebhookDeliveryDto,
  WebhookEndpointDto,
} from '../../../shared/schemas/api-keys';
import type { ServiceDto } from '../../../shared/schemas/catalogue';
import type { KeyDraft } from './draft';

export type ApiKey = ApiKeyDto;
export type WebhookEndpoint = WebhookEndpointDto;
export type WebhookDelivery = WebhookDeliveryDto;
export type Service = ServiceDto;

/** What the profile's key and webhook forms send to its clientAction (as JSON), by `intent`. */
export type ResellerPayload =
  | { intent: 'key-create'; draft: KeyDraft }
  | { intent: 'key-revoke'; id: string; name: string }
  | { intent: 'endpoint-create'; url: string }
  | { intent: 'endpoint-delete'; id: string; url: string }
  | { intent: 'endpoint-enable'; id: string; url: string }
  | { intent: 'delivery-resend'; endpointId: string; deliveryId: string };

export type ResellerIntent = ResellerPayload['intent'];

/** What the clientAction answers; each fetcher only reads the fields of its intent. */
export type ResellerActionResult = {
  intent: ResellerIntent | null;
  ok: boolean;
  /** The key, endpoint or delivery the action was about. */
  id?: string;
  message?: string;
  formError?: string;
  /** Errors by input (`name`, `allowedIps`, `url`). */
  fields?: Record<string, string>;
  /** key-create: the key, the only time it is shown. */
  createdKey?: CreatedApiKey;
  /** endpoint-create: the endpoint with its signing secret, the only time it is shown. */
  createdEndpoint?: CreatedWebhookEndpoint;
};

/**
 * Fetcher keys: fetchers that share a key share their state, so a section can read how an action
 * of one of its rows ended (the row itself may be gone by then).
 */
export const FETCHER_KEYS = {
  createKey: 'reseller-key-create',
  revokeKey: 'reseller-key-revoke',
  createEndpoint: 'reseller-endpoint-create',
  endpoint: 'reseller-endpoint',
} as const;
