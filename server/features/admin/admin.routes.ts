import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { CreateCustomerNoteSchema, CustomerListQuerySchema } from '../../../shared/schemas/admin';
import { IdCursorSchema, OpaqueCursorSchema } from '../../../shared/schemas/query';
import { AdjustmentSchema } from '../../../shared/schemas/wallet';
import { AppError } from '../../lib/errors';
import { idempotencyKey } from '../../lib/http';
import { defineRoute } from '../../lib/route';
import { listOrders } from '../orders/orders.service';
import { listMovements, listTopups } from '../wallet/wallet.service';
import { adjustBalance } from './adjustments.service';
import { addNote, getCustomer, listNotes, requireCustomer } from './customer.service';
import {
  customerDetailFor,
  customerListFor,
  customerOrdersFor,
  seesMoney,
} from '../staff/staff-view';
import { listCustomers } from './users.service';

/**
 * A customer's `:id`. Account ids are Better Auth's (32 letters and digits), not UUIDs, so
 * `idParams` would refuse every one; anything else answers 404 like an unknown account.
 */
const CUSTOMER_ID = z.object({
  id: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,64}$/)
    .describe('Identificador del cliente.'),
});

/** /api/admin/users: the customers, their page, and correcting their balance (admins only). */
export const adminRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/admin/users',
    operationId: 'adminListCustomers',
    tag: 'Administración',
    summary: 'Lista de clientes, ordenable y filtrable',
    description:
      'Las cuentas (sin las eliminadas), cada una con su saldo (`balance`), su última orden (`lastOrderAt`), lo que gastó (`spend`: lo cobrado de sus órdenes), su alta (`createdAt`) y si está bloqueada (`blocked`). `q` busca en el correo y el nombre; `sort` ordena por `balance`, `lastOrder`, `spend` o `created` (por defecto), de mayor a menor salvo `dir=asc`; `blocked=true` o `false` filtra. Paginada por cursor: `nextCursor` pide la página siguiente con los mismos filtros y orden.',
    access: 'admin',
    roles: ['admin', 'support', 'finance'],
    query: CustomerListQuerySchema,
    responses: [{ status: 200, description: 'Una página de clientes.', body: 'CustomerList' }],
    errors: ['BAD_REQUEST'],
    handler: async ({ c, deps, user, query }) => {
      if (!seesMoney(user.role) && (query.sort === 'balance' || query.sort === 'spend'))
        throw new AppError(
          'FORBIDDEN',
          'Tu rol no ve saldos ni gastos: no puede ordenar por ellos.',
        );
      return c.json(
        customerListFor(
          user.role,
          await listCustomers(deps.db, {
            q: query.q,
            sort: query.sort,
            dir: query.dir,
            blocked:
              query.blocked === 'true' ? true : query.blocked === 'false' ? false : undefined,
            cursor: query.cursor,
            limit: query.limit ? Number(query.limit) : undefined,
          }),
        ),
      );
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/admin/users/:id',
    operationId: 'adminGetCustomer',
    tag: 'Administración',
    summary: 'Un cliente: su saldo, su actividad y su estado',
    description:
      'Lo que encabeza la página del cliente: su saldo disponible y retenido, lo que gastó, sus órdenes, sus sesiones abiertas, su último acceso, si está bloqueado, verificado y con verificación en dos pasos.',
    access: 'admin',
    roles: ['admin', 'support', 'finance'],
    params: CUSTOMER_ID,
    responses: [{ status: 200, description: 'El cliente.', body: 'CustomerDetail' }],
    errors: ['NOT_FOUND'],
    handler: async ({ c, deps, user, params }) =>
      c.json(customerDetailFor(user.role, await getCustomer(deps.db, params.id))),
  }),
  defineRoute({
    method: 'get',
    path: '/api/admin/users/:id/orders',
    operationId: 'adminListCustomerOrders',
    tag: 'Administración',
    summary: 'Las órdenes de un cliente',
    description: 'De la más reciente a la más antigua, en páginas de 25.',
    access: 'admin',
    roles: ['admin', 'support', 'finance'],
    params: CUSTOMER_ID,
    query: z.object({ cursor: OpaqueCursorSchema.optional() }),
    responses: [{ status: 200, description: 'Una página de órdenes.', body: 'StaffOrdersPage' }],
    errors: ['NOT_FOUND', 'BAD_REQUEST'],
    handler: async ({ c, deps, user, params, query }) => {
      await requireCustomer(deps.db, params.id);
      return c.json(
        customerOrdersFor(
          user.role,
          await listOrders(deps.db, params.id, {}, query.cursor, 25, 'staff'),
        ),
      );
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/admin/users/:id/ledger',
    operationId: 'adminListCustomerMovements',
    tag: 'Administración',
    summary: 'Los movimientos del saldo de un cliente',
    description:
      'Su extracto del saldo disponible con el saldo después de cada movimiento, del más reciente al más antiguo, en páginas de 20.',
    access: 'admin',
    roles: ['admin', 'finance'],
    params: CUSTOMER_ID,
    query: z.object({ cursor: IdCursorSchema.optional() }),
    responses: [{ status: 200, description: 'Una página de movimientos.', body: 'MovementsPage' }],
    errors: ['NOT_FOUND', 'BAD_REQUEST'],
    handler: async ({ c, deps, params, query }) => {
      await requireCustomer(deps.db, params.id);
      return c.json(await listMovements(deps.db, params.id, query.cursor));
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/admin/users/:id/payments',
    operationId: 'adminListCustomerPayments',
    tag: 'Administración',
    summary: 'Las recargas de un cliente',
    description:
      'Sus 50 recargas más recientes de todos los métodos (tarjeta, pago manual y códigos), con su estado.',
    access: 'admin',
    roles: ['admin', 'finance'],
    params: CUSTOMER_ID,
    responses: [{ status: 200, description: 'Las recargas.', body: 'PaymentList' }],
    errors: ['NOT_FOUND'],
    handler: async ({ c, deps, params }) => {
      await requireCustomer(deps.db, params.id);
      return c.json({ items: await listTopups(deps.db, params.id) });
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/admin/users/:id/notes',
    operationId: 'adminListCustomerNotes',
    tag: 'Administración',
    summary: 'Las notas internas sobre un cliente',
    description:
      'Lo que los administradores anotaron sobre el cliente (él no las ve), de la más reciente a la más antigua.',
    access: 'admin',
    roles: ['admin', 'support', 'finance'],
    params: CUSTOMER_ID,
    responses: [{ status: 200, description: 'Las notas.', body: 'CustomerNoteList' }],
    errors: ['NOT_FOUND'],
    handler: async ({ c, deps, params }) => c.json({ items: await listNotes(deps.db, params.id) }),
  }),
  defineRoute({
    method: 'post',
    path: '/api/admin/users/:id/notes',
    operationId: 'adminAddCustomerNote',
    tag: 'Administración',
    summary: 'Anotar algo sobre un cliente',
    description:
      'Una nota interna con su autor y su fecha; el cliente no la ve. Soporte lee los clientes pero no los cambia: no anota.',
    access: 'admin',
    roles: ['admin', 'finance'],
    params: CUSTOMER_ID,
    body: { schema: CreateCustomerNoteSchema },
    responses: [{ status: 201, description: 'La nota guardada.', body: 'CustomerNote' }],
    errors: ['NOT_FOUND'],
    handler: async ({ c, deps, user, params, body }) =>
      c.json(
        await addNote(deps.db, {
          adminId: user.id,
          userId: params.id,
          body: body.body,
          ipAddress: c.get('clientIp'),
        }),
        201,
      ),
  }),
  defineRoute({
    method: 'post',
    path: '/api/admin/users/:id/adjustments',
    operationId: 'adminAdjustBalance',
    tag: 'Administración',
    summary: 'Ajustar el saldo de un cliente',
    description:
      'Un abono (importe positivo) o un cargo (negativo) con un motivo, auditado. Un cargo que dejaría el saldo por debajo de cero (o de menos su límite de crédito, si tiene) responde 402. Nadie ajusta su propio saldo: un administrador que lo intenta recibe 403 y lo tiene que hacer otro administrador.',
    access: 'admin',
    roles: ['admin', 'finance'],
    idempotencyKey:
      'Clave única por ajuste. Repetir la petición con la misma clave no mueve el saldo otra vez y responde 200. Sin ella, cada petición es un ajuste nuevo.',
    params: CUSTOMER_ID,
    body: { schema: AdjustmentSchema },
    responses: [
      { status: 201, description: 'Ajuste hecho.', body: 'AdjustmentResult' },
      {
        status: 200,
        description: 'Repetición con la misma `Idempotency-Key`: el ajuste ya hecho.',
        body: 'AdjustmentResult',
      },
    ],
    errors: ['INSUFFICIENT_FUNDS', 'NOT_FOUND', 'CONFLICT'],
    handler: async ({ c, deps, user, params, body }) => {
      const result = await adjustBalance(deps.db, {
        adminId: user.id,
        userId: params.id,
        amount: body.amount,
        reason: body.reason,
        requestKey: idempotencyKey(c) ?? randomUUID(),
        ipAddress: c.get('clientIp'),
      });
      return c.json(result, result.replayed ? 200 : 201);
    },
  }),
];
