import { z } from 'zod';
import { BalanceSchema, DateTimeSchema, MoneySchema } from './common';
import { OrderDtoSchema } from './orders';
import { OpaqueCursorSchema } from './query';

/** The web app's customer search asks for at least this many characters before it searches. */
export const CUSTOMER_SEARCH_MIN_LENGTH = 2;
/** …and reads at most this many. */
export const CUSTOMER_SEARCH_MAX_LENGTH = 100;

/** A customer in the admin list (GET /api/admin/users), with their money and activity. */
export const CustomerSummarySchema = z.strictObject({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  role: z.string(),
  emailVerified: z.boolean(),
  /** The available balance (Saldo); null for the support role, which never sees balances. */
  balance: BalanceSchema.nullable(),
  /** The same as `balance` (the name the first version of this list used). */
  available: BalanceSchema.nullable(),
  /** When they placed their last order; null: never. */
  lastOrderAt: DateTimeSchema.nullable(),
  /**
   * What their orders took (captured: completed orders, and the delivered share of partial ones);
   * null for the support role.
   */
  spend: MoneySchema.nullable(),
  createdAt: DateTimeSchema,
  /** Blocked by an admin: cannot sign in. */
  blocked: z.boolean(),
});
export type CustomerSummary = z.infer<typeof CustomerSummarySchema>;

/** GET /api/admin/users: a keyset page of customers. */
export const CustomerListSchema = z.strictObject({
  items: z.array(CustomerSummarySchema),
  nextCursor: z.string().nullable(),
});
export type CustomerList = z.infer<typeof CustomerListSchema>;

/** How the admin list of customers can be ordered (always with the account id as tie-break). */
export const CUSTOMER_SORTS = ['balance', 'lastOrder', 'spend', 'created'] as const;
export type CustomerSort = (typeof CUSTOMER_SORTS)[number];

/** Customers per page of GET /api/admin/users unless `limit` says otherwise. */
export const CUSTOMER_PAGE_SIZE = 50;

/** `?sort=&dir=&blocked=&q=&cursor=&limit=` of GET /api/admin/users. */
export const CustomerListQuerySchema = z.object({
  q: z
    .string()
    .max(CUSTOMER_SEARCH_MAX_LENGTH, 'La búsqueda es demasiado larga (máximo 100 caracteres).')
    .optional()
    .meta({ description: 'Parte del correo o del nombre.', example: 'ana@' }),
  sort: z
    .enum(CUSTOMER_SORTS, {
      error: 'El orden no es válido: usa balance, lastOrder, spend o created.',
    })
    .optional()
    .meta({
      description:
        'Por saldo (`balance`), última orden (`lastOrder`; quien nunca pidió va al final), gasto (`spend`) o fecha de alta (`created`, por defecto).',
      example: 'balance',
    }),
  dir: z
    .enum(['desc', 'asc'], { error: 'La dirección no es válida: usa desc o asc.' })
    .optional()
    .meta({ description: 'De mayor a menor (`desc`, por defecto) o al revés (`asc`).' }),
  blocked: z
    .enum(['true', 'false', ''], { error: 'El filtro de bloqueo no es válido: usa true o false.' })
    .optional()
    .meta({
      description: 'Solo las cuentas bloqueadas (`true`) o solo las no bloqueadas (`false`).',
    }),
  cursor: OpaqueCursorSchema.optional(),
  limit: z
    .string()
    .regex(/^\d{1,3}$/, 'El tamaño de página debe ser un número entre 1 y 100.')
    .refine(
      (v) => /^\d{1,3}$/.test(v) && Number(v) >= 1 && Number(v) <= 100,
      'El tamaño de página debe ser un número entre 1 y 100.',
    )
    .optional()
    .meta({ description: `Clientes por página (1 a 100; ${CUSTOMER_PAGE_SIZE} por defecto).` }),
});
export type CustomerListQuery = z.output<typeof CustomerListQuerySchema>;

/** POST /api/admin/users/:id/adjustments: the balances after, and whether it was a replay. */
export const AdjustmentResultSchema = z.strictObject({
  available: BalanceSchema,
  held: MoneySchema,
  transferId: z.string(),
  replayed: z.boolean(),
});
export type AdjustmentResult = z.infer<typeof AdjustmentResultSchema>;

/** GET /api/admin/users/:id: one customer as the admin's customer page shows them. */
export const CustomerDetailSchema = z.strictObject({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  role: z.string(),
  emailVerified: z.boolean(),
  blocked: z.boolean(),
  twoFactorEnabled: z.boolean(),
  /** Available balance (Saldo); this and the next three are null for the support role. */
  balance: BalanceSchema.nullable(),
  /** Held by orders in progress (En proceso). */
  held: MoneySchema.nullable(),
  /** Credit limit: how far below zero orders may take `balance` ("0.00": none). */
  creditLimit: MoneySchema.nullable(),
  spend: MoneySchema.nullable(),
  orders: z.number().int(),
  lastOrderAt: DateTimeSchema.nullable(),
  /** Sessions open now. */
  sessions: z.number().int(),
  /** When they last signed in (the newest session); null: never. */
  lastSignInAt: DateTimeSchema.nullable(),
  createdAt: DateTimeSchema,
});
export type CustomerDetail = z.infer<typeof CustomerDetailSchema>;

/** The longest note an admin can write on a customer. */
export const CUSTOMER_NOTE_MAX_LENGTH = 2000;

/** POST /api/admin/users/:id/notes */
export const CreateCustomerNoteSchema = z.strictObject({
  body: z
    .string({ error: 'Escribe la nota.' })
    .trim()
    .min(1, 'Escribe la nota.')
    .max(
      CUSTOMER_NOTE_MAX_LENGTH,
      `La nota puede tener hasta ${CUSTOMER_NOTE_MAX_LENGTH} caracteres.`,
    )
    .meta({ description: 'El texto de la nota (solo lo ven los administradores).' }),
});
export type CreateCustomerNote = z.infer<typeof CreateCustomerNoteSchema>;

/** An admin's note on a customer (never shown to the customer). */
export const CustomerNoteSchema = z.strictObject({
  id: z.uuid(),
  body: z.string(),
  /** The admin who wrote it; null if that account was deleted. */
  authorName: z.string().nullable(),
  createdAt: DateTimeSchema,
});
export type CustomerNote = z.infer<typeof CustomerNoteSchema>;

/** GET /api/admin/users/:id/notes: newest first. */
export const CustomerNoteListSchema = z.strictObject({ items: z.array(CustomerNoteSchema) });
export type CustomerNoteList = z.infer<typeof CustomerNoteListSchema>;

/**
 * An order as a customer's page in the back office lists it: the customer's view, with `price`
 * null for the support role (support never sees what services cost or charge).
 */
export const StaffOrderDtoSchema = z.strictObject({
  ...OrderDtoSchema.shape,
  price: MoneySchema.nullable(),
});
export type StaffOrderDto = z.infer<typeof StaffOrderDtoSchema>;

/** GET /api/admin/users/:id/orders */
export const StaffOrdersPageSchema = z.strictObject({
  items: z.array(StaffOrderDtoSchema),
  nextCursor: z.string().nullable(),
});
export type StaffOrdersPage = z.infer<typeof StaffOrdersPageSchema>;
