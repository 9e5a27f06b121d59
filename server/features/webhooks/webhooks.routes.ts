import { CreateWebhookEndpointSchema } from '../../../shared/schemas/api-keys';
import { idParams } from '../../../shared/schemas/query';
import { z } from 'zod';
import { defineRoute } from '../../lib/route';
import {
  createEndpoint,
  deleteEndpoint,
  enableEndpoint,
  listDeliveries,
  listEndpoints,
  resendDelivery,
  testEndpoint,
} from './webhooks.service';

const ENDPOINT_ID = idParams('Identificador del destino de avisos (UUID).');
const DELIVERY_PARAMS = z.object({
  id: z.guid().describe('Identificador del destino de avisos (UUID).'),
  deliveryId: z.guid().describe('Identificador del aviso (UUID).'),
});

const SIGNATURE_HELP =
  'Cada aviso es un `POST` con el JSON `{ id, type: "order.updated", createdAt, data }` (`data`: la orden como la ves en `GET /api/orders/:id`, sin historial) y la cabecera `Cometa-Signature: t=<segundos Unix>,v1=<HMAC-SHA256 en hexadecimal de "<t>.<cuerpo>" con tu secreto>`. Comprueba la firma con el cuerpo tal como llega y rechaza `t` de hace más de 5 minutos. Responde 2xx: cualquier otra respuesta se reintenta con esperas que se duplican durante 3 días; después el destino se desactiva y te avisamos por correo. El mismo aviso (mismo `id`) puede llegar más de una vez.';

/** /api/webhook-endpoints: where a customer's order updates are POSTed, signed. */
export const webhookRoutes = [
  defineRoute({
    method: 'post',
    path: '/api/webhook-endpoints',
    operationId: 'createWebhookEndpoint',
    tag: 'Cuenta',
    summary: 'Añadir un destino de avisos (webhook)',
    description: `El secreto de firma (\`secret\`) se muestra solo en esta respuesta. ${SIGNATURE_HELP}`,
    access: 'customer',
    body: { schema: CreateWebhookEndpointSchema },
    responses: [
      { status: 201, description: 'El destino, con su secreto.', body: 'CreatedWebhookEndpoint' },
    ],
    errors: ['CONFLICT'],
    handler: async ({ c, deps, user, body }) =>
      c.json(await createEndpoint(deps, user.id, body), 201),
  }),
  defineRoute({
    method: 'get',
    path: '/api/webhook-endpoints',
    operationId: 'listWebhookEndpoints',
    tag: 'Cuenta',
    summary: 'Mis destinos de avisos',
    access: 'customer',
    responses: [{ status: 200, description: 'Los destinos.', body: 'WebhookEndpointList' }],
    handler: async ({ c, deps, user }) => c.json({ items: await listEndpoints(deps.db, user.id) }),
  }),
  defineRoute({
    method: 'delete',
    path: '/api/webhook-endpoints/:id',
    operationId: 'deleteWebhookEndpoint',
    tag: 'Cuenta',
    summary: 'Borrar un destino de avisos',
    access: 'customer',
    params: ENDPOINT_ID,
    responses: [{ status: 200, description: 'Borrado.', body: 'Deleted' }],
    handler: async ({ c, deps, user, params }) => {
      await deleteEndpoint(deps.db, user.id, params.id);
      return c.json({ deleted: true as const });
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/webhook-endpoints/:id/enable',
    operationId: 'enableWebhookEndpoint',
    tag: 'Cuenta',
    summary: 'Activar de nuevo un destino desactivado',
    access: 'customer',
    params: ENDPOINT_ID,
    responses: [{ status: 200, description: 'El destino.', body: 'WebhookEndpointDto' }],
    handler: async ({ c, deps, user, params }) =>
      c.json(await enableEndpoint(deps.db, user.id, params.id)),
  }),
  defineRoute({
    method: 'get',
    path: '/api/webhook-endpoints/:id/deliveries',
    operationId: 'listWebhookDeliveries',
    tag: 'Cuenta',
    summary: 'Avisos enviados a un destino, con cada intento',
    description: 'Los 50 más recientes.',
    access: 'customer',
    params: ENDPOINT_ID,
    responses: [{ status: 200, description: 'Los avisos.', body: 'WebhookDeliveryList' }],
    handler: async ({ c, deps, user, params }) =>
      c.json({ items: await listDeliveries(deps.db, user.id, params.id) }),
  }),
  defineRoute({
    method: 'post',
    path: '/api/webhook-endpoints/:id/deliveries/:deliveryId/resend',
    operationId: 'resendWebhookDelivery',
    tag: 'Cuenta',
    summary: 'Reenviar un aviso',
    description:
      'El mismo aviso (mismo `id` y cuerpo), firmado de nuevo, con 3 días más de reintentos.',
    access: 'customer',
    params: DELIVERY_PARAMS,
    responses: [{ status: 200, description: 'En cola.', body: 'Resent' }],
    errors: ['CONFLICT'],
    handler: async ({ c, deps, user, params }) => {
      await resendDelivery(deps, user.id, params.id, params.deliveryId);
      return c.json({ resent: true as const });
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/webhook-endpoints/:id/test',
    operationId: 'testWebhookEndpoint',
    tag: 'Cuenta',
    summary: 'Probar un destino de avisos',
    description:
      'Pone en cola un aviso de prueba `{ id, type: "webhook.test", createdAt, data: { message } }`, firmado como los demás, con un solo intento (no se reintenta ni cuenta como fallo del destino). Su resultado aparece en los avisos del destino (`GET /api/webhook-endpoints/:id/deliveries`).',
    access: 'customer',
    params: ENDPOINT_ID,
    responses: [
      { status: 201, description: 'El aviso de prueba, en cola.', body: 'WebhookDeliveryDto' },
    ],
    errors: ['CONFLICT'],
    handler: async ({ c, deps, user, params }) =>
      c.json(await testEndpoint(deps, user.id, params.id), 201),
  }),
];
