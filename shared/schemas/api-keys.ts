// Personal API keys (the reseller API) and webhook endpoints, as the customer manages them.
import { z } from 'zod';
import { DateTimeSchema } from './common';

export const API_KEYS_MAX = 20;
export const ALLOWED_IPS_MAX = 20;

/** POST /api/keys. */
export const CreateApiKeySchema = z.object({
  name: z
    .string({ error: 'Escribe un nombre para la clave.' })
    .trim()
    .min(1, 'Escribe un nombre para la clave.')
    .max(60, 'El nombre es demasiado largo (máximo 60 caracteres).'),
  /** Addresses or CIDR ranges ("203.0.113.7", "2001:db8::/32"); empty or absent: any address. */
  allowedIps: z
    .array(
      z
        .string({ error: 'Cada dirección debe ser un texto.' })
        .trim()
        .min(2, 'Escribe una dirección IP o un rango (por ejemplo 203.0.113.0/24).')
        .max(64, 'La dirección es demasiado larga.'),
      { error: 'Las direcciones deben ser una lista.' },
    )
    .max(ALLOWED_IPS_MAX, `Como máximo ${ALLOWED_IPS_MAX} direcciones.`)
    .default([]),
});
export type CreateApiKeyInput = z.infer<typeof CreateApiKeySchema>;

export const ApiKeyDtoSchema = z.strictObject({
  id: z.uuid(),
  name: z.string(),
  /** The key's first characters, to tell keys apart ("cmt_AbCd1234"). */
  prefix: z.string(),
  allowedIps: z.array(z.string()),
  createdAt: DateTimeSchema,
  lastUsedAt: DateTimeSchema.nullable(),
});
export type ApiKeyDto = z.infer<typeof ApiKeyDtoSchema>;

/** The answer to POST /api/keys: the only time the key itself is shown. */
export const CreatedApiKeySchema = z.strictObject({
  ...ApiKeyDtoSchema.shape,
  key: z.string(),
});
export type CreatedApiKey = z.infer<typeof CreatedApiKeySchema>;

export const ApiKeyListSchema = z.strictObject({ items: z.array(ApiKeyDtoSchema) });
export type ApiKeyList = z.infer<typeof ApiKeyListSchema>;

// ─── Webhooks ────────────────────────────────────────────────────────────────────────────────

export const WEBHOOK_ENDPOINTS_MAX = 10;

/** POST /api/webhook-endpoints. */
export const CreateWebhookEndpointSchema = z.object({
  url: z
    .string({ error: 'Escribe la dirección que recibirá los avisos.' })
    .trim()
    .max(500, 'La dirección es demasiado larga.')
    .regex(/^https?:\/\/\S+$/i, 'La dirección debe empezar por http:// o https://.'),
});
export type CreateWebhookEndpointInput = z.infer<typeof CreateWebhookEndpointSchema>;

export const WEBHOOK_ENDPOINT_STATES = ['active', 'disabled'] as const;

export const WebhookEndpointDtoSchema = z.strictObject({
  id: z.uuid(),
  url: z.string(),
  state: z.enum(WEBHOOK_ENDPOINT_STATES),
  stateLabel: z.string(),
  /** Attempts that failed in a row. */
  failures: z.number().int(),
  disabledReason: z.string().nullable(),
  createdAt: DateTimeSchema,
});
export type WebhookEndpointDto = z.infer<typeof WebhookEndpointDtoSchema>;

/** The answer to POST /api/webhook-endpoints: the only time the signing secret is shown. */
export const CreatedWebhookEndpointSchema = z.strictObject({
  ...WebhookEndpointDtoSchema.shape,
  secret: z.string(),
});
export type CreatedWebhookEndpoint = z.infer<typeof CreatedWebhookEndpointSchema>;

export const WebhookEndpointListSchema = z.strictObject({
  items: z.array(WebhookEndpointDtoSchema),
});
export type WebhookEndpointList = z.infer<typeof WebhookEndpointListSchema>;

export const WEBHOOK_DELIVERY_STATES = ['pending', 'delivered', 'failed'] as const;

/** One try: the status the receiver answered and a short reason, never its answer's body. */
export const WebhookAttemptDtoSchema = z.strictObject({
  at: DateTimeSchema,
  httpStatus: z.number().int().nullable(),
  /** Why it failed, in a few fixed words («Tiempo de espera agotado»); null when answered 2xx. */
  reason: z.string().nullable(),
  ms: z.number().int(),
});

export const WebhookDeliveryDtoSchema = z.strictObject({
  id: z.uuid(),
  eventId: z.string(),
  type: z.string(),
  orderId: z.uuid().nullable(),
  state: z.enum(WEBHOOK_DELIVERY_STATES),
  stateLabel: z.string(),
  attempts: z.number().int(),
  nextAttemptAt: DateTimeSchema.nullable(),
  deliveredAt: DateTimeSchema.nullable(),
  createdAt: DateTimeSchema,
  /** The JSON sent, exactly (what the signature covers). */
  body: z.string(),
  /** The latest attempts, newest first (up to 10). */
  lastAttempts: z.array(WebhookAttemptDtoSchema),
});
export type WebhookDeliveryDto = z.infer<typeof WebhookDeliveryDtoSchema>;

export const WebhookDeliveryListSchema = z.strictObject({
  items: z.array(WebhookDeliveryDtoSchema),
});
export type WebhookDeliveryList = z.infer<typeof WebhookDeliveryListSchema>;
