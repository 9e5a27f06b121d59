import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { AdjustmentSchema } from '../../../shared/schemas/wallet';
import { idempotencyKey } from '../../lib/http';
import { defineRoute } from '../../lib/route';
import { adjustBalance } from './adjustments.service';
import { searchCustomers } from './users.service';

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

const SearchQuerySchema = z.object({
  q: z
    .string()
    .max(100, 'La búsqueda es demasiado larga (máximo 100 caracteres).')
    .optional()
    .meta({
      description: 'Parte del correo o del nombre (al menos 2 caracteres).',
      example: 'ana@',
    }),
});

/** /api/admin/users: finding customers and correcting their balance (admins only). */
export const adminRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/admin/users',
    operationId: 'adminSearchCustomers',
    tag: 'Administración',
    summary: 'Buscar clientes por correo o nombre',
    description: 'Hasta 20 resultados; con menos de 2 caracteres devuelve una lista vacía.',
    access: 'admin',
    query: SearchQuerySchema,
    responses: [{ status: 200, description: 'Los clientes encontrados.', body: 'CustomerList' }],
    handler: async ({ c, deps, query }) =>
      c.json({ items: await searchCustomers(deps.db, query.q ?? '') }),
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
