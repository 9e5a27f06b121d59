import { z } from 'zod';
import { DateTimeSchema } from './common';
import { OpaqueCursorSchema } from './query';

// The support desk: tickets between a customer and the shop (docs/domain.md, "Support desk").
// API values are English identifiers, like order statuses; people read the Spanish labels. The
// API is liberal in what it takes: the Spanish words of a category or state are accepted too.

export const TICKET_CATEGORIES = ['order', 'payment', 'account', 'api', 'other'] as const;
export type TicketCategory = (typeof TICKET_CATEGORIES)[number];
export const TICKET_CATEGORY_LABELS: Record<TicketCategory, string> = {
  order: 'Orden',
  payment: 'Pago',
  account: 'Cuenta',
  api: 'API',
  other: 'Otro',
};

/**
 * open: the customer wrote last (new, or the customer replied) and waits for the shop;
 * answered: the shop answered; waiting_customer: the shop needs something from the customer;
 * closed: by the customer, by staff, or by itself after 7 idle days in answered/waiting_customer.
 */
export const TICKET_STATES = ['open', 'answered', 'waiting_customer', 'closed'] as const;
export type TicketState = (typeof TICKET_STATES)[number];
export const TICKET_STATE_LABELS: Record<TicketState, string> = {
  open: 'Abierto',
  answered: 'Respondido',
  waiting_customer: 'Esperando al cliente',
  closed: 'Cerrado',
};

/** Days an answered or waiting ticket stays idle before it closes itself. */
export const TICKET_AUTO_CLOSE_DAYS = 7;
export const TICKET_FILES_MAX = 3;
export const TICKET_FILE_MAX_BYTES = 5 * 1024 * 1024;
/** What an attachment may be, judged from its content (not its name): images and PDF. */
export const TICKET_FILE_TYPES = [
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'application/pdf',
] as const;
export const TICKET_ORDERS_MAX = 20;
export const TICKET_SUBJECT_MAX = 150;
export const TICKET_BODY_MAX = 10_000;

const CATEGORY_ALIASES: Record<string, TicketCategory> = {
  orden: 'order',
  ordenes: 'order',
  órdenes: 'order',
  pago: 'payment',
  pagos: 'payment',
  cuenta: 'account',
  otro: 'other',
  otros: 'other',
};
const STATE_ALIASES: Record<string, TicketState> = {
  abierto: 'open',
  respondido: 'answered',
  esperando: 'waiting_customer',
  'esperando al cliente': 'waiting_customer',
  esperando_cliente: 'waiting_customer',
  'waiting-customer': 'waiting_customer',
  waiting: 'waiting_customer',
  cerrado: 'closed',
};

function alias<T extends string>(aliases: Record<string, T>) {
  return (v: unknown) => {
    if (typeof v !== 'string') return v;
    const key = v.trim().toLowerCase();
    return aliases[key] ?? key;
  };
}

export const TicketCategorySchema = z.preprocess(
  alias(CATEGORY_ALIASES),
  z.enum(TICKET_CATEGORIES, { error: 'Elige una categoría: orden, pago, cuenta, API u otro.' }),
);
export const TicketStateSchema = z.preprocess(
  alias(STATE_ALIASES),
  z.enum(TICKET_STATES, {
    error: 'El estado no es válido: abierto, respondido, esperando al cliente o cerrado.',
  }),
);

export const TicketSubjectSchema = z
  .string({ error: 'Escribe el asunto.' })
  .trim()
  .min(3, 'Escribe el asunto (3 caracteres como mínimo).')
  .max(
    TICKET_SUBJECT_MAX,
    `El asunto es demasiado largo (${TICKET_SUBJECT_MAX} caracteres como mucho).`,
  );
export const TicketBodySchema = z
  .string({ error: 'Escribe tu mensaje.' })
  .trim()
  .min(1, 'Escribe tu mensaje.')
  .max(
    TICKET_BODY_MAX,
    `El mensaje es demasiado largo (${TICKET_BODY_MAX} caracteres como mucho).`,
  );

/**
 * Linked orders: their UUIDs. A form sends them as one comma-separated field or repeated fields;
 * JSON as an array.
 */
const OrderIdsSchema = z.preprocess(
  (v) => {
    if (v === undefined || v === null || v === '') return undefined;
    if (typeof v === 'string')
      return v
        .split(/[\s,]+/)
        .map((s) => s.trim())
        .filter(Boolean);
    return v;
  },
  z
    .array(z.uuid('Alguna de las órdenes no es válida.'))
    .max(TICKET_ORDERS_MAX, `Como mucho ${TICKET_ORDERS_MAX} órdenes por ticket.`)
    .optional(),
);

/** POST /api/tickets (JSON, or multipart with the same fields plus `files`). */
export const CreateTicketSchema = z.object({
  subject: TicketSubjectSchema,
  category: TicketCategorySchema,
  orderIds: OrderIdsSchema,
  message: TicketBodySchema,
});
export type CreateTicketRequest = z.output<typeof CreateTicketSchema>;
export const CreatedTicketSchema = z.strictObject({
  id: z.uuid(),
  number: z.number().int(),
  state: z.enum(TICKET_STATES),
});
export type CreatedTicket = z.infer<typeof CreatedTicketSchema>;

/** POST /api/tickets/:id/messages (JSON `{ body }` or multipart with `files`). */
export const TicketReplySchema = z.object({ body: TicketBodySchema });
/** POST /api/admin/tickets/:id/messages: `internal` notes are never shown to the customer. */
export const StaffTicketReplySchema = z.object({
  body: TicketBodySchema,
  internal: z
    .preprocess((v) => (v === 'true' || v === 'on' ? true : v === 'false' ? false : v), z.boolean())
    .optional()
    .default(false),
  /** Optional: the state after this answer (default answered; ignored for internal notes). */
  state: TicketStateSchema.optional(),
});

/** A staff member's account id (Better Auth ids are not UUIDs). */
const StaffIdSchema = z
  .string({ error: 'Elige a alguien del equipo.' })
  .regex(/^[A-Za-z0-9_-]{1,64}$/, 'Elige a alguien del equipo.');

/** PATCH /api/admin/tickets/:id: at least one of them. */
export const UpdateTicketSchema = z
  .object({
    state: TicketStateSchema.optional(),
    assigneeId: StaffIdSchema.nullable().optional(),
  })
  .refine((v) => v.state !== undefined || v.assigneeId !== undefined, {
    message: 'Indica el estado o la persona asignada.',
  });

export const TicketAttachmentDtoSchema = z.strictObject({
  id: z.uuid(),
  name: z.string(),
  contentType: z.string(),
  size: z.number().int(),
  /** Where to download it (only the people in the ticket can). */
  url: z.string(),
});
export type TicketAttachmentDto = z.infer<typeof TicketAttachmentDtoSchema>;

export const TICKET_AUTHOR_KINDS = ['customer', 'staff', 'system'] as const;
export const TicketMessageDtoSchema = z.strictObject({
  id: z.uuid(),
  authorKind: z.enum(TICKET_AUTHOR_KINDS),
  /** The staff member's name as the customer sees it (their display name), or the customer's. */
  authorName: z.string(),
  body: z.string(),
  /** Only in staff answers; customers never receive internal notes. */
  internal: z.boolean(),
  attachments: z.array(TicketAttachmentDtoSchema),
  createdAt: DateTimeSchema,
});
export type TicketMessageDto = z.infer<typeof TicketMessageDtoSchema>;

export const TicketOrderRefSchema = z.strictObject({
  id: z.uuid(),
  number: z.number().int(),
  serviceName: z.string(),
  status: z.string(),
});

/** A ticket in a list (customer's or staff's). */
export const TicketSummarySchema = z.strictObject({
  id: z.uuid(),
  number: z.number().int(),
  subject: z.string(),
  category: z.enum(TICKET_CATEGORIES),
  state: z.enum(TICKET_STATES),
  /** Messages the reader has not seen (customer: staff answers; staff: customer messages). */
  unread: z.number().int(),
  lastMessageAt: DateTimeSchema,
  createdAt: DateTimeSchema,
  closedAt: DateTimeSchema.nullable(),
});
export type TicketSummary = z.infer<typeof TicketSummarySchema>;

export const TicketListSchema = z.strictObject({
  items: z.array(TicketSummarySchema),
  nextCursor: z.string().nullable(),
});
export type TicketList = z.infer<typeof TicketListSchema>;

/** GET /api/tickets/:id (the customer's view: never internal notes). */
export const TicketDetailSchema = TicketSummarySchema.extend({
  orders: z.array(TicketOrderRefSchema),
  messages: z.array(TicketMessageDtoSchema),
});
export type TicketDetail = z.infer<typeof TicketDetailSchema>;

export const TicketCustomerRefSchema = z.strictObject({
  id: z.string(),
  email: z.string(),
  name: z.string(),
});
export const TicketAssigneeSchema = z.strictObject({ id: z.string(), name: z.string() });
/** GET /api/admin/tickets/assignees: who a ticket can be assigned to (the desk's staff). */
export const TicketAssigneeListSchema = z.strictObject({ items: z.array(TicketAssigneeSchema) });
export type TicketAssigneeList = z.infer<typeof TicketAssigneeListSchema>;

/** A ticket in the staff list. */
export const StaffTicketSummarySchema = TicketSummarySchema.extend({
  customer: TicketCustomerRefSchema,
  assignee: TicketAssigneeSchema.nullable(),
  /** Seconds from the ticket to the first staff answer (null: not answered yet). */
  firstResponseSeconds: z.number().int().nullable(),
  /** Seconds from the ticket to its (last) closing (null: not closed). */
  resolutionSeconds: z.number().int().nullable(),
});
export type StaffTicketSummary = z.infer<typeof StaffTicketSummarySchema>;
export const StaffTicketListSchema = z.strictObject({
  items: z.array(StaffTicketSummarySchema),
  nextCursor: z.string().nullable(),
});
export type StaffTicketList = z.infer<typeof StaffTicketListSchema>;

/** GET /api/admin/tickets/:id: with internal notes. */
export const StaffTicketDetailSchema = StaffTicketSummarySchema.extend({
  orders: z.array(TicketOrderRefSchema),
  messages: z.array(TicketMessageDtoSchema),
});
export type StaffTicketDetail = z.infer<typeof StaffTicketDetailSchema>;

/** A query filter that an empty value (`?state=`, a form's blank select) leaves out. */
function blankIsAbsent<T extends z.ZodType>(schema: T, error: string, description: string) {
  return z
    .union([z.literal(''), schema], { error })
    .transform((v) => (v === '' ? undefined : (v as z.output<T>)))
    .optional()
    .meta({ description });
}

const TicketStateQuery = blankIsAbsent(
  TicketStateSchema,
  'El estado no es válido: abierto, respondido, esperando al cliente o cerrado.',
  'Solo los tickets en este estado (`open`, `answered`, `waiting_customer`, `closed`; también en español).',
);
const TicketCursorQuery = blankIsAbsent(
  OpaqueCursorSchema,
  'El cursor de la página no es válido.',
  'El `nextCursor` de la página anterior, para pedir la siguiente.',
);
const TicketLimitQuery = blankIsAbsent(
  z.coerce.number().int().min(1).max(100),
  'Indica entre 1 y 100 tickets por página.',
  'Tickets por página (1 a 100; 25 si no se indica).',
);

/**
 * GET /api/admin/tickets filters (an empty one is no filter). `assignee` is a staff id, `me` or
 * `none`.
 */
export const StaffTicketQuerySchema = z.object({
  state: TicketStateQuery,
  category: blankIsAbsent(
    TicketCategorySchema,
    'Elige una categoría: orden, pago, cuenta, API u otro.',
    'Solo los tickets de esta categoría (`order`, `payment`, `account`, `api`, `other`).',
  ),
  assignee: blankIsAbsent(
    z.union([z.literal('me'), z.literal('none'), StaffIdSchema]),
    'Elige a alguien del equipo, `me` o `none`.',
    '`me`, `none` (sin asignar) o el identificador de alguien del equipo.',
  ),
  customer: z
    .string()
    .trim()
    .max(200, 'La búsqueda del cliente es demasiado larga.')
    .optional()
    .meta({ description: 'El cliente: su correo o su nombre (o parte), o su identificador.' }),
  order: z
    .string()
    .trim()
    .max(60, 'La orden del filtro no es válida.')
    .optional()
    .meta({ description: 'Una orden vinculada: su número (`#1042` o `1042`) o su identificador.' }),
  q: z
    .string()
    .trim()
    .max(200, 'La búsqueda es demasiado larga.')
    .optional()
    .meta({ description: 'El asunto (o parte) o el número del ticket.' }),
  cursor: TicketCursorQuery,
  limit: TicketLimitQuery,
});
export type StaffTicketQuery = z.output<typeof StaffTicketQuerySchema>;

export const TicketQuerySchema = z.object({
  state: TicketStateQuery,
  cursor: TicketCursorQuery,
  limit: TicketLimitQuery,
});

/** POST /api/admin/tickets/bulk-close */
export const BulkCloseTicketsSchema = z.object({
  ids: z
    .array(z.uuid('Identificador de ticket no válido.'))
    .min(1, 'Elige al menos un ticket.')
    .max(100, 'Como mucho 100 tickets a la vez.'),
});

/** Unread counts for the header (customers: tickets with unread answers; staff: open tickets). */
export const TicketUnreadSchema = z.strictObject({ unread: z.number().int() });

/** The multipart forms as documented (the `files` parts are binary; up to 3). */
export const CreateTicketFormSchema = CreateTicketSchema.extend({
  files: z
    .string()
    .optional()
    .describe('Un archivo adjunto (parte binaria); repite el campo para adjuntar hasta 3.'),
});
export const TicketReplyFormSchema = TicketReplySchema.extend({
  files: CreateTicketFormSchema.shape.files,
});
export const StaffTicketReplyFormSchema = StaffTicketReplySchema.extend({
  files: CreateTicketFormSchema.shape.files,
});

/** `/api/tickets/:id/attachments/:attachmentId` (and the staff's). */
export const TicketAttachmentParamsSchema = z.object({
  id: z.guid().describe('Identificador del ticket (UUID).'),
  attachmentId: z.guid().describe('Identificador del archivo adjunto (UUID).'),
});

/** What a bulk close did: the tickets it closed (those already closed are left as they were). */
export const BulkCloseTicketsResultSchema = z.strictObject({
  closed: z.number().int(),
  ids: z.array(z.uuid()),
});
export type BulkCloseTicketsResult = z.infer<typeof BulkCloseTicketsResultSchema>;
