import { NotificationPrefsSchema } from '../../../shared/schemas/notifications';
import { AppError } from '../../lib/errors';
import { defineRoute } from '../../lib/route';
import {
  createLinkCode,
  getSettings,
  handleUpdate,
  TelegramUpdateSchema,
  unlink,
  updatePreferences,
  webhookSecretMatches,
} from './telegram.service';

/** Largest update read from Telegram (a message is at most 4096 characters plus its entities). */
const WEBHOOK_MAX_BYTES = 256 * 1024;

export const telegramRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/me/notifications',
    operationId: 'getMyNotifications',
    tag: 'Telegram',
    summary: 'Avisos elegidos y cuenta de Telegram vinculada',
    access: 'customer',
    responses: [
      {
        status: 200,
        description: 'Los avisos elegidos, los que esta cuenta puede elegir y el vínculo.',
        body: 'NotificationSettings',
      },
    ],
    handler: async ({ c, deps, user }) => c.json(await getSettings(deps.db, deps.env, user)),
  }),
  defineRoute({
    method: 'put',
    path: '/api/me/notifications',
    operationId: 'updateMyNotifications',
    tag: 'Telegram',
    summary: 'Elegir qué avisos llegan por Telegram',
    description:
      'Reemplaza la lista. Un tipo que esta cuenta no puede recibir (por su rol) se rechaza con 400.',
    access: 'customer',
    body: { schema: NotificationPrefsSchema },
    responses: [
      { status: 200, description: 'Los avisos guardados.', body: 'NotificationSettings' },
    ],
    handler: async ({ c, deps, user, body }) =>
      c.json(await updatePreferences(deps.db, deps.env, user, body.telegram)),
  }),
  defineRoute({
    method: 'post',
    path: '/api/me/telegram/link',
    operationId: 'createTelegramLink',
    tag: 'Telegram',
    summary: 'Código para vincular Telegram',
    description:
      'Un código de un solo uso, válido 15 minutos, y el enlace `https://t.me/<bot>?start=<código>`. La cuenta queda vinculada cuando el bot recibe `/start <código>`. Responde 404 si la tienda no tiene bot de Telegram.',
    access: 'customer',
    rateLimit: {
      name: 'telegram-link',
      per: 'user',
      window: 600,
      max: 10,
      message: 'Pediste varios códigos seguidos. Espera unos minutos e inténtalo de nuevo.',
    },
    responses: [{ status: 201, description: 'El código y su enlace.', body: 'TelegramLink' }],
    errors: ['NOT_FOUND', 'CONFLICT', 'RATE_LIMITED'],
    handler: async ({ c, deps, user }) =>
      c.json(await createLinkCode(deps.db, deps.env, user), 201),
  }),
  defineRoute({
    method: 'delete',
    path: '/api/me/telegram',
    operationId: 'unlinkTelegram',
    tag: 'Telegram',
    summary: 'Desvincular Telegram',
    description: 'Quita el vínculo; los avisos pendientes de enviar se descartan.',
    access: 'customer',
    responses: [
      { status: 200, description: 'Los avisos, ya sin vínculo.', body: 'NotificationSettings' },
    ],
    handler: async ({ c, deps, user }) => c.json(await unlink(deps.db, deps.env, user)),
  }),
];

/** /api/telegram/webhook: Telegram's updates, checked by the secret header (no session). */
export const telegramWebhookRoutes = [
  defineRoute({
    method: 'post',
    path: '/api/telegram/webhook',
    operationId: 'receiveTelegramUpdate',
    tag: 'Telegram',
    summary: 'Actualización del bot de Telegram',
    description:
      'No la llama una persona: Telegram envía aquí lo que recibe el bot (configúralo con `setWebhook` y `secret_token`). Sin la cabecera `X-Telegram-Bot-Api-Secret-Token` correcta responde 401 y no cambia nada; 404 si la tienda no tiene bot. Una actualización repetida (mismo `update_id`) no hace nada dos veces.',
    access: 'public',
    body: { schema: TelegramUpdateSchema, description: 'El Update, tal como lo envía Telegram.' },
    rawBody: true,
    bodyLimit: WEBHOOK_MAX_BYTES,
    responses: [{ status: 200, description: 'Actualización recibida.', body: 'TelegramAck' }],
    errors: ['UNAUTHENTICATED', 'NOT_FOUND', 'PAYLOAD_TOO_LARGE'],
    handler: async ({ c, deps }) => {
      const config = deps.env.telegram;
      if (!config)
        throw new AppError('NOT_FOUND', 'Esta tienda no tiene un bot de Telegram configurado.');
      if (!webhookSecretMatches(config, c.req.header('x-telegram-bot-api-secret-token')))
        throw new AppError('UNAUTHENTICATED', 'La cabecera secreta de Telegram no es correcta.');
      // Anything Telegram sends is acknowledged (it retries a non-2xx for a day): what Cometa
      // does not understand is ignored.
      let raw: unknown;
      try {
        raw = JSON.parse(await c.req.text());
      } catch {
        return c.json({ ok: true as const });
      }
      const update = TelegramUpdateSchema.safeParse(raw);
      if (update.success) {
        await handleUpdate(deps, update.data);
        deps.jobs.wake('telegram-send');
      }
      return c.json({ ok: true as const });
    },
  }),
];
