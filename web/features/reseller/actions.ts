import {
  ApiKeyListSchema,
  CreatedApiKeySchema,
  CreatedWebhookEndpointSchema,
  WebhookDeliveryDtoSchema,
  WebhookDeliveryListSchema,
  WebhookEndpointDtoSchema,
  WebhookEndpointListSchema,
} from '../../../shared/schemas/api-keys';
import { ServiceListSchema } from '../../../shared/schemas/catalogue';
import { api, ApiError } from '../../lib/api';
import { settle, type Loaded } from '../../lib/loaded';
import { endpointErrors, keyErrors, keyInput, placeKeyErrors } from './draft';
import type {
  ApiKey,
  ResellerActionResult,
  ResellerIntent,
  ResellerPayload,
  Service,
  WebhookDelivery,
  WebhookEndpoint,
} from './types';

const KEYS = '/api/keys';
const ENDPOINTS = '/api/webhook-endpoints';

function keyPath(id: string): string {
  return `${KEYS}/${encodeURIComponent(id)}`;
}

function endpointPath(id: string): string {
  return `${ENDPOINTS}/${encodeURIComponent(id)}`;
}

/** The customer's active keys (never the keys themselves). */
export function loadApiKeys(): Promise<Loaded<ApiKey[]>> {
  return settle(api.get(KEYS, ApiKeyListSchema).then((r) => r.items));
}

export function loadWebhookEndpoints(): Promise<Loaded<WebhookEndpoint[]>> {
  return settle(api.get(ENDPOINTS, WebhookEndpointListSchema).then((r) => r.items));
}

/** The active services, for their numbers (SERVICEID in DHRU, `service` in SMM). */
export function loadServices(): Promise<Loaded<Service[]>> {
  return settle(api.get('/api/services', ServiceListSchema).then((r) => r.items));
}

/** The latest deliveries to one endpoint, newest first (never rejects). */
export function loadDeliveries(endpointId: string): Promise<Loaded<WebhookDelivery[]>> {
  return settle(
    api
      .get(`${endpointPath(endpointId)}/deliveries`, WebhookDeliveryListSchema)
      .then((r) => r.items),
  );
}

/**
 * «Probar»: queues a signed test event (the server sends it from its job queue) and waits for its
 * one try, reading the endpoint's deliveries, for up to `timeoutMs`.
 */
export async function testEndpoint(
  endpointId: string,
  timeoutMs = 20_000,
): Promise<WebhookDelivery> {
  const queued = await api.post(`${endpointPath(endpointId)}/test`, WebhookDeliveryDtoSchema);
  const deadline = Date.now() + timeoutMs;
  let latest = queued;
  while (latest.state === 'pending' && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 700));
    const list = await api.get(`${endpointPath(endpointId)}/deliveries`, WebhookDeliveryListSchema);
    latest = list.items.find((d) => d.id === queued.id) ?? latest;
  }
  return latest;
}

async function run(payload: ResellerPayload): Promise<ResellerActionResult> {
  switch (payload.intent) {
    case 'key-create': {
      const errors = keyErrors(payload.draft);
      if (Object.keys(errors).length > 0)
        return {
          intent: payload.intent,
          ok: false,
          formError: 'Revisa los campos marcados.',
          fields: errors,
        };
      try {
        const createdKey = await api.post(KEYS, CreatedApiKeySchema, keyInput(payload.draft));
        return {
          intent: payload.intent,
          ok: true,
          id: createdKey.id,
          createdKey,
          message: `Clave «${createdKey.name}» creada.`,
        };
      } catch (err) {
        if (!(err instanceof ApiError)) throw err;
        const fields = placeKeyErrors(payload.draft, err.fields);
        return {
          intent: payload.intent,
          ok: false,
          formError: Object.keys(fields).length > 0 ? 'Revisa los campos marcados.' : err.message,
          fields,
        };
      }
    }
    case 'key-revoke': {
      await api(keyPath(payload.id), { method: 'DELETE' });
      return {
        intent: payload.intent,
        ok: true,
        id: payload.id,
        message: `Clave «${payload.name}» revocada: ya no funciona en ninguna de las API.`,
      };
    }
    case 'endpoint-create': {
      const errors = endpointErrors(payload.url);
      if (Object.keys(errors).length > 0)
        return { intent: payload.intent, ok: false, fields: errors };
      const createdEndpoint = await api.post(ENDPOINTS, CreatedWebhookEndpointSchema, {
        url: payload.url,
      });
      return {
        intent: payload.intent,
        ok: true,
        id: createdEndpoint.id,
        createdEndpoint,
        message: `Destino añadido: ${createdEndpoint.url}`,
      };
    }
    case 'endpoint-delete': {
      await api(endpointPath(payload.id), { method: 'DELETE' });
      return {
        intent: payload.intent,
        ok: true,
        id: payload.id,
        message: `Destino borrado: ${payload.url}. Ya no le enviaremos avisos.`,
      };
    }
    case 'endpoint-enable': {
      const endpoint = await api.post(
        `${endpointPath(payload.id)}/enable`,
        WebhookEndpointDtoSchema,
      );
      return {
        intent: payload.intent,
        ok: true,
        id: endpoint.id,
        message: `Destino activado de nuevo: ${endpoint.url}. Reenvía los avisos que necesites.`,
      };
    }
    case 'delivery-resend': {
      await api(
        `${endpointPath(payload.endpointId)}/deliveries/${encodeURIComponent(payload.deliveryId)}/resend`,
        { method: 'POST' },
      );
      return {
        intent: payload.intent,
        ok: true,
        id: payload.deliveryId,
        message: 'Aviso reenviado: sale en unos segundos. Pulsa «Actualizar» para ver cómo fue.',
      };
    }
  }
}

const INTENTS: readonly ResellerIntent[] = [
  'key-create',
  'key-revoke',
  'endpoint-create',
  'endpoint-delete',
  'endpoint-enable',
  'delivery-resend',
];

function isPayload(value: unknown): value is ResellerPayload {
  return (
    typeof value === 'object' &&
    value !== null &&
    INTENTS.includes((value as { intent?: unknown }).intent as ResellerIntent)
  );
}

/** Whether a clientAction request is one of these forms (they are sent as JSON). */
export function isResellerRequest(request: Request): boolean {
  return request.headers.get('Content-Type')?.includes('application/json') === true;
}

/** The profile's clientAction for keys and webhooks (JSON body): by `intent`, API errors mapped. */
export async function runResellerAction(request: Request): Promise<ResellerActionResult> {
  let payload: unknown;
  try {
    payload = await request.json();
  } catch {
    payload = null;
  }
  if (!isPayload(payload)) return { intent: null, ok: false, formError: 'Acción desconocida.' };
  try {
    return await run(payload);
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    const id =
      'id' in payload ? payload.id : 'deliveryId' in payload ? payload.deliveryId : undefined;
    return {
      intent: payload.intent,
      ok: false,
      ...(id ? { id } : {}),
      formError: err.message,
      fields: err.fields,
    };
  }
}
