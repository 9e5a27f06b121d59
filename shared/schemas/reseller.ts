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
    .describe('`services`, `add`, `status`, `balance` o `cancel` (`refill` responde un error).'),
  service: z.string().optional().describe('`add`: el número de servicio.'),
  link: z.string().optional().describe('`add`: el enlace.'),
  quantity: z.string().optional().describe('`add`: la cantidad (servicios por 1000).'),
  order: z.string().optional().describe('`status`: el número de orden.'),
  orders: z
    .string()
    .optional()
    .describe('`status` y `cancel`: hasta 100 números de orden separados por comas.'),
});
