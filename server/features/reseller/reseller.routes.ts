import { DhruRequestSchema, SmmRequestSchema } from '../../../shared/schemas/reseller';
import { defineRoute } from '../../lib/route';
import { handleDhru } from './dhru.server';
import { DHRU_BODY_LIMIT } from './dhru-files.server';
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
      'El protocolo de DHRU Fusion tal cual: formulario con `username` (el correo de la cuenta), `apiaccesskey` (una clave API personal), `action`, `requestformat` y `parameters` en XML o base64 de JSON. Responde siempre el sobre DHRU `{ "SUCCESS": [...], "apiversion": "6.1" }` o `{ "ERROR": [{ "MESSAGE": "…", "FULL_DESCRIPTION": "…" }], "apiversion": "6.1" }` con HTTP 200 (mensajes: `Authentication Failed`, `Invalid Action`, `Invalid parameters`, `Invalid Service ID`, `Invalid IMEI`, `Duplicate IMEI`, `Not enough credits`, `Order not found`, `Too many requests, try again later`). `SERVICEID` y `REFERENCEID` son números estables: el número del servicio y el de la orden. Estados: 0 nueva, 1 en proceso, 3 rechazada o cancelada (motivo en `CODE`), 4 completada (resultado en `CODE`, en HTML). Acciones: `accountinfo`, `imeiservicelist`, `getimeiservicedetails`, `modellist`, `providerlist` y `meplist` (listas vacías: ningún servicio las pide), `placeimeiorder`, `placeimeiorderbulk`, `getimeiorder` y `getimeiorderbulk` (en bloque, un objeto por referencias o una lista), y para los servicios que piden un archivo `fileservicelist`, `placefileorder` (`FILENAME` y `FILEDATA` en base64) y `getfileorder`. `CUSTOMFIELD` vacío o base64 de `null` es «sin campos»; un `parameters` vacío (`<PARAMETERS/>`, `< />`) es «sin parámetros».',
    access: 'protocol',
    protocolForm: DhruRequestSchema,
    // placefileorder carries a whole file in base64.
    bodyLimit: DHRU_BODY_LIMIT,
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
      'El protocolo de los paneles SMM: `key` (una clave API personal) y `action`, como formulario, multipart, JSON o en la URL. `services` lista cada servicio con `type` (`Default`, `Package`, `Custom Comments`, `Custom Comments Package`, `Mentions with Hashtags`, `Mentions Custom List`, `Mentions Hashtag`, `Mentions User Followers`, `Mentions Media Likers`, `Comment Likes`, `Poll`, `Subscriptions`), `category`, `rate` (por 1000, o por orden en los paquetes), `min`, `max`, `dripfeed`, `refill`, `cancel` y `desc`; `add` con `service` y los parámetros de su tipo (y `runs` e `interval` para el goteo) responde `{ "order": <número> }`; `status` con `order` o hasta 100 `orders` (con `start_count` y `remains`); `cancel` con `order` u `orders` (al momento si aún no se envió; si está en proceso en el proveedor, se le pide y se reembolsa cuando la cancele); `refill` con `order` u `orders` y `refill_status` con `refill` o `refills`; `balance`. Los errores son `{ "error": "…" }` con HTTP 200.',
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
  defineRoute({
    method: 'get',
    path: '/api/v2',
    operationId: 'smmPanelApiGet',
    tag: 'Reventa',
    summary: 'API de paneles SMM (v2) por GET',
    description:
      'Lo mismo que `POST /api/v2`, con los campos en la URL (`/api/v2?key=…&action=balance`), como lo llaman algunos scripts de paneles SMM. Mejor por POST: la clave no queda en los registros de los servidores intermedios.',
    access: 'protocol',
    protocolForm: SmmRequestSchema,
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
