import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { CustomerListQuerySchema } from '../../../shared/schemas/admin';
import { AdjustmentSchema } from '../../../shared/schemas/wallet';
import { idempotencyKey } from '../../lib/http';
import { defineRoute } from '../../lib/route';
import { adjustBalance } from './adjustments.service';
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

/** /api/admin/users: the customers, and correcting their balance (admins only). */
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
    query: CustomerListQuerySchema,
    responses: [{ status: 200, description: 'Una página de clientes.', body: 'CustomerList' }],
    errors: ['BAD_REQUEST'],
    handler: async ({ c, deps, query }) =>
      c.json(
        await listCustomers(deps.db, {
          q: query.q,
          sort: query.sort,
          dir: query.dir,
          blocked: query.blocked === 'true' ? true : query.blocked === 'false' ? false : undefined,
          cursor: query.cursor,
          limit: query.limit ? Number(query.limit) : undefined,
        }),
      ),
  }),
  defineRoute({
    method: 'post',
    path: '/api/admin/users/:id/adjustments',
    operationId: 'adminAdjustBalance',
    tag: 'Administración',
    summary: 'Ajustar el saldo de un cliente',
    description:
      'Un abono (importe positivo) o un cargo (negativo) con un motivo, auditado. Un cargo que dejaría el saldo por debajo de cero responde 402. Nadie ajusta su propio saldo: un administrador que lo intenta recibe 403 y lo tiene que hacer otro administrador.',
    access: 'admin',
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
