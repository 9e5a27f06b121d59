import { z } from 'zod';
import { DateTimeSchema, MoneySchema } from './common';
import { CompleteOrderSchema, RejectOrderSchema } from './orders';

/**
 * GET /api/admin/overview: what needs a person now, counted by the database, and today's sales.
 * The same counts are the badges of the admin menu.
 */
export const AdminOverviewSchema = z.strictObject({
  /** Orders waiting to be taken (status pending), those in «Revisar» left to `reviewOrders`. */
  pendingOrders: z.number().int(),
  /** Orders in progress (pending or processing) whose forwarding waits for a decision («Revisar»). */
  reviewOrders: z.number().int(),
  /** Manual top-ups declared by customers and not yet approved or rejected (null: not your area). */
  pendingPayments: z.number().int().nullable(),
  /** Suppliers whose last calls failed (state `failing`; null: not your area). */
  failingSuppliers: z.number().int().nullable(),
  /** Orders placed today (UTC day) and not refunded in full. */
  todayOrders: z.number().int(),
  /**
   * What today's orders charge: held or captured, minus the refunded share of partial ones (null
   * for the support role).
   */
  todaySales: MoneySchema.nullable(),
  /** The start of the day the sales count from (ISO 8601, UTC). */
  since: z.iso.datetime(),
  /** Support tickets waiting for the shop (state open; null: not your area). */
  openTickets: z.number().int().nullable(),
});
export type AdminOverview = z.infer<typeof AdminOverviewSchema>;

export const BULK_ORDER_ACTIONS = ['take', 'complete', 'reject', 'resend'] as const;
export type BulkOrderAction = (typeof BULK_ORDER_ACTIONS)[number];
export const BULK_ORDER_MAX = 100;

/**
 * POST /api/admin/orders/bulk: one action on the selected orders, each on its own. `complete`
 * needs `result`, `reject` needs `reason` (the same rules as one order's routes).
 */
export const BulkOrderActionSchema = z
  .object({
    action: z.enum(BULK_ORDER_ACTIONS, {
      error: 'Elige una acción: take, complete, reject o resend.',
    }),
    ids: z
      .array(z.uuid('Identificador de orden no válido.'), { error: 'Elige al menos una orden.' })
      .min(1, 'Elige al menos una orden.')
      .max(BULK_ORDER_MAX, `Como mucho ${BULK_ORDER_MAX} órdenes a la vez.`),
    result: CompleteOrderSchema.shape.result.optional(),
    reason: RejectOrderSchema.shape.reason.optional(),
  })
  .superRefine((v, ctx) => {
    if (v.action === 'complete' && v.result === undefined)
      ctx.addIssue({ code: 'custom', path: ['result'], message: 'Escribe el resultado.' });
    if (v.action === 'reject' && v.reason === undefined)
      ctx.addIssue({ code: 'custom', path: ['reason'], message: 'Escribe el motivo.' });
  });
export type BulkOrderActionRequest = z.infer<typeof BulkOrderActionSchema>;

export const BulkActionItemSchema = z.strictObject({
  id: z.uuid(),
  ok: z.boolean(),
  /** The order's number, when it exists. */
  number: z.number().int().nullable(),
  /** Why nothing changed (null when it worked). */
  message: z.string().nullable(),
});
export const BulkActionResultSchema = z.strictObject({
  done: z.number().int(),
  failed: z.number().int(),
  results: z.array(BulkActionItemSchema),
});
export type BulkActionResult = z.infer<typeof BulkActionResultSchema>;

/** Saved texts: reasons to reject orders, completion result templates, support ticket replies. */
export const SNIPPET_KINDS = ['reject_reason', 'result_template', 'ticket_reply'] as const;
export type SnippetKind = (typeof SNIPPET_KINDS)[number];

/** A saved reason to reject orders, or a template of a completion's result. */
export const SnippetDtoSchema = z.strictObject({
  id: z.uuid(),
  kind: z.enum(SNIPPET_KINDS),
  title: z.string(),
  body: z.string(),
  position: z.number().int(),
  createdAt: DateTimeSchema,
  updatedAt: DateTimeSchema,
});
export type SnippetDto = z.infer<typeof SnippetDtoSchema>;
export const SnippetListSchema = z.strictObject({ items: z.array(SnippetDtoSchema) });
export type SnippetList = z.infer<typeof SnippetListSchema>;

/** A saved text's short name, as the queue's picker shows it. */
export const SnippetTitleSchema = z
  .string({ error: 'Escribe un título.' })
  .trim()
  .min(1, 'Escribe un título.')
  .max(60, 'El título es demasiado largo (60 caracteres como mucho).');
const SnippetBodySchema = z
  .string({ error: 'Escribe el texto.' })
  .trim()
  .min(1, 'Escribe el texto.')
  .max(5000, 'El texto es demasiado largo (5000 caracteres como mucho).');
const snippetPosition = z.number().int().min(0).max(10_000);

/** POST /api/admin/snippets. The body follows the rules of what it fills in. */
export const CreateSnippetSchema = z
  .object({
    kind: z.enum(SNIPPET_KINDS, {
      error: 'Elige «reject_reason», «result_template» o «ticket_reply».',
    }),
    title: SnippetTitleSchema,
    body: SnippetBodySchema,
    position: snippetPosition.optional(),
  })
  .superRefine((v, ctx) => {
    const rule = v.kind === 'reject_reason' ? RejectOrderSchema.shape.reason : null;
    const checked = rule?.safeParse(v.body);
    if (checked && !checked.success)
      ctx.addIssue({
        code: 'custom',
        path: ['body'],
        message: checked.error.issues[0]?.message ?? 'Texto no válido.',
      });
  });

/** A saved text's title and body as an admin types them, by the rules the API applies to `kind`. */
export function snippetTextSchema(kind: SnippetKind) {
  return z.object({
    title: SnippetTitleSchema,
    body: kind === 'reject_reason' ? RejectOrderSchema.shape.reason : SnippetBodySchema,
  });
}

/** PATCH /api/admin/snippets/:id. */
export const UpdateSnippetSchema = z.object({
  title: SnippetTitleSchema.optional(),
  body: SnippetBodySchema.optional(),
  position: snippetPosition.optional(),
});
