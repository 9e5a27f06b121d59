// The forms other panels send to our DHRU Fusion and SMM v2 endpoints (documented for them; the
// handlers read them leniently, as those protocols' clients send them).
import { z } from 'zod';

export const DhruRequestSchema = z.object({
  username: z.string().describe('El correo de la cuenta.'),
  apiaccesskey: z.string().describe('Una clave API personal de esa cuenta.'),
  action: z
    .string()
    .describe(
      '`accountinfo`, `imeiservicelist`, `getimeiservicedetails`, `placeimeiorder`, `placeimeiorderbulk`, `getimeiorder` o `getimeiorderbulk`.',
    ),
  requestformat: z.string().optional().describe('`JSON` (las respuestas son siempre JSON).'),
  parameters: z
    .string()
    .optional()
    .describe(
      'Los parámetros de la acción, en XML (`<PARAMETERS><ID>12</ID><IMEI>…</IMEI></PARAMETERS>`) o en base64 de JSON; los datos extra del servicio van en `CUSTOMFIELD` (base64 de JSON `{ "<campo>": "<valor>" }`). En las acciones en bloque, base64 de JSON con una fila por referencia propia.',
    ),
});

export const SmmRequestSchema = z.object({
  key: z.string().describe('Una clave API personal.'),
  action: z
    .string()
    .describe('`services`, `add`, `status`, `cancel`, `refill`, `refill_status` o `balance`.'),
  service: z.string().optional().describe('`add`: el número de servicio.'),
  link: z.string().optional().describe('`add`: el enlace (todos los tipos salvo `Subscriptions`).'),
  quantity: z
    .string()
    .optional()
    .describe(
      '`add`: la cantidad (`Default`, menciones, `Comment Likes`, `Poll`); con goteo, la de cada repetición.',
    ),
  runs: z.string().optional().describe('`add`, goteo (servicios con `dripfeed`): repeticiones.'),
  interval: z.string().optional().describe('`add`, goteo: minutos entre repeticiones.'),
  comments: z
    .string()
    .optional()
    .describe(
      '`add` (`Custom Comments`…): un comentario por línea; la cantidad es el número de líneas.',
    ),
  usernames: z.string().optional().describe('`add` (menciones): un usuario por línea.'),
  hashtags: z.string().optional().describe('`add` (`Mentions with Hashtags`): uno por línea.'),
  hashtag: z.string().optional().describe('`add` (`Mentions Hashtag`): el hashtag.'),
  username: z
    .string()
    .optional()
    .describe('`add` (`Mentions User Followers`, `Comment Likes`, `Subscriptions`): el usuario.'),
  media: z
    .string()
    .optional()
    .describe('`add` (`Mentions Media Likers`): el enlace de la publicación.'),
  answer_number: z.string().optional().describe('`add` (`Poll`): el número de respuesta.'),
  min: z.string().optional().describe('`add` (`Subscriptions`): mínimo por publicación.'),
  max: z.string().optional().describe('`add` (`Subscriptions`): máximo por publicación.'),
  posts: z.string().optional().describe('`add` (`Subscriptions`): cuántas publicaciones nuevas.'),
  delay: z
    .string()
    .optional()
    .describe('`add` (`Subscriptions`): minutos de retraso (0, 5, 10, 15, 30, 60 o 90).'),
  expiry: z
    .string()
    .optional()
    .describe('`add` (`Subscriptions`): fecha de caducidad (día/mes/año), opcional.'),
  order: z.string().optional().describe('`status`, `cancel`, `refill`: un número de orden.'),
  orders: z
    .string()
    .optional()
    .describe('`status`, `cancel` y `refill`: hasta 100 números de orden separados por comas.'),
  refill: z.string().optional().describe('`refill_status`: un número de reposición.'),
  refills: z
    .string()
    .optional()
    .describe('`refill_status`: hasta 100 números de reposición separados por comas.'),
});
