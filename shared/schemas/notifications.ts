import { z } from 'zod';

// Instant notifications (Telegram): what a person can choose to receive. Staff kinds are about
// the shop's work; customer kinds about their own orders and tickets (`ticket.reply` is both: a
// customer's reply for staff, the shop's answer for the customer).

export const NOTIFICATION_KINDS = [
  'ticket.new',
  'ticket.reply',
  'order.review',
  'supplier.failing',
  'payment.pending',
  'credit.limit',
  'stock.low',
  'order.completed',
  'order.rejected',
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

export const STAFF_NOTIFICATION_KINDS = [
  'ticket.new',
  'ticket.reply',
  'order.review',
  'supplier.failing',
  'payment.pending',
  'credit.limit',
  'stock.low',
] as const satisfies readonly NotificationKind[];
export const CUSTOMER_NOTIFICATION_KINDS = [
  'order.completed',
  'order.rejected',
  'ticket.reply',
] as const satisfies readonly NotificationKind[];

/** How each kind is named to staff (`/admin` profile) and to customers (Mi perfil). */
export const NOTIFICATION_KIND_LABELS: Record<NotificationKind, string> = {
  'ticket.new': 'Ticket nuevo',
  'ticket.reply': 'Respuesta en un ticket',
  'order.review': 'Orden esperando en «Revisar»',
  'supplier.failing': 'Proveedor con fallos o saldo bajo',
  'payment.pending': 'Pago esperando aprobación',
  'credit.limit': 'Cliente en su límite de crédito',
  'stock.low': 'Poco stock de un servicio',
  'order.completed': 'Orden completada (con el resultado)',
  'order.rejected': 'Orden rechazada (con el motivo)',
};

export const NotificationKindSchema = z.enum(NOTIFICATION_KINDS, {
  error: `Tipo de aviso no válido: ${NOTIFICATION_KINDS.join(', ')}.`,
});

/** PUT /api/me/notifications (and its GET answer). */
export const NotificationPrefsSchema = z.object({
  telegram: z
    .array(NotificationKindSchema)
    .max(NOTIFICATION_KINDS.length)
    .transform((kinds) => [...new Set(kinds)]),
});
export type NotificationPrefsRequest = z.output<typeof NotificationPrefsSchema>;

export const NotificationSettingsSchema = z.strictObject({
  telegram: z.array(z.enum(NOTIFICATION_KINDS)),
  /** The kinds this account may choose (by role). */
  available: z.array(z.enum(NOTIFICATION_KINDS)),
  /** The linked Telegram account, or null. */
  telegramLink: z
    .strictObject({
      username: z.string().nullable(),
      linkedAt: z.iso.datetime(),
      /** False once the person blocked the bot: nothing more is sent until they link again. */
      active: z.boolean(),
    })
    .nullable(),
  /** Whether the shop has a Telegram bot at all (TELEGRAM_BOT_TOKEN). */
  telegramEnabled: z.boolean(),
});
export type NotificationSettings = z.infer<typeof NotificationSettingsSchema>;

/** POST /api/me/telegram/link: a one-time code and the bot's deep link. */
export const TelegramLinkSchema = z.strictObject({
  code: z.string(),
  url: z.string(),
  expiresAt: z.iso.datetime(),
});
export type TelegramLink = z.infer<typeof TelegramLinkSchema>;
