import { DhruRequestSchema, SmmRequestSchema } from '../../../shared/schemas/reseller';
import { defineRoute } from '../../lib/route';
import { handleDhru } from './dhru.server';
import { handleSmm } from './smm.server';

/** Bulk placements carry up to 500 rows. */
const PROTOCOL_BODY_LIMIT = 1024 * 1024;

/** The reseller API in the two protocols the trade speaks (docs/protocols.md §4.3). */
export const resellerRoutes = [
  defineRoute({
    method: 'post',
    path: '/api/index.php',
    operationId: 'dhruFusionApi',
    tag: 'Reventa',
    summary: 'API DHRU Fusion (para paneles DHRU y compatibles)',
    description:
      'El protocolo de DHRU Fusion tal cual: formulario con `username` (el correo de la cuenta), `apiaccesskey` (una clave API personal), `action`, `requestformat` y `parameters` en XML o base64 de JSON. Responde siempre el sobre DHRU `{ "SUCCESS": [...], "apiversion": "6.1" }` o `{ "ERROR": [{ "MESSAGE": "…", "FULL_DESCRIPTION": "…" }], "apiversion": "6.1" }` con HTTP 200 (mensajes: `Authentication Failed`, `Invalid Action`, `Invalid parameters`, `Invalid Service ID`, `Invalid IMEI`, `Duplicate IMEI`, `Not enough credits`, `Order not found`, `Too many requests, try again later`). `SERVICEID` y `REFERENCEID` son números estables: el número del servicio y el de la orden. Estados: 0 nueva, 1 en proceso, 3 rechazada o cancelada (motivo en `CODE`), 4 completada (resultado en `CODE`, en HTML).',
    access: 'protocol',
    protocolForm: DhruRequestSchema,
    bodyLimit: PROTOCOL_BODY_LIMIT,
    responses: [
      {
        status: 200,
        description: 'El sobre DHRU con el resultado o el error.',
        body: { media: ['application/json'], description: 'Sobre DHRU (`SUCCESS` o `ERROR`).' },
      },
    ],
    handler: ({ c, deps }) => handleDhru(c, deps),
  }),
  defineRoute({
    method: 'post',
    path: '/api/v2',
    operationId: 'smmPanelApi',
    tag: 'Reventa',
    summary: 'API de paneles SMM (v2)',
    description:
      'El protocolo de los paneles SMM: formulario con `key` (una clave API personal) y `action`. `services` lista los servicios por cada 1000 (`Default`, con `rate` por 1000, `min` y `max`) y los de precio fijo con enlace (`Package`); `add` con `service`, `link` y `quantity` responde `{ "order": <número> }`; `status` con `order` o con hasta 100 `orders` separados por comas; `balance`; `cancel` con `orders` (solo las pendientes que aún no se enviaron, con reembolso). Los errores son `{ "error": "…" }` con HTTP 200.',
    access: 'protocol',
    protocolForm: SmmRequestSchema,
    bodyLimit: PROTOCOL_BODY_LIMIT,
    responses: [
      {
        status: 200,
        description: 'La respuesta SMM, o `{ "error": "…" }`.',
        body: { media: ['application/json'], description: 'Respuesta del protocolo SMM v2.' },
      },
    ],
    handler: ({ c, deps }) => handleSmm(c, deps),
  }),
];
